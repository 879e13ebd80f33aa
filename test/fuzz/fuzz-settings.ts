import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runs, SEED } from '../support/property.ts';
import { ROOT } from '../support/root.ts';

// The generated-bodies suite's knobs, read once: the run's seed and count (support/property.ts).
// A failure prints its seed and index, and FUZZ_SEED=<seed> FUZZ_ONLY=<index> replays exactly that body.

export const FUZZ = {
  seed: Number(process.env.FUZZ_SEED ?? SEED),
  /** Bodies per mode: 250 under test:deep (about a minute a mode), a quarter of that in a run. */
  runs: Number(process.env.FUZZ_RUNS ?? runs(250)),
  only: process.env.FUZZ_ONLY === undefined ? undefined : Number(process.env.FUZZ_ONLY),
  /** How long an acknowledged event may take to become readable (consumer batches are 300-500 ms). */
  visibilityMs: 30_000,
};

/** Writes the suite's findings where CI keeps test results, and returns the path. */
export function writeFindings(name: string, findings: unknown): string {
  const dir = join(ROOT, '.devtrail', 'test-results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(findings, null, 2)}\n`);
  return file;
}
