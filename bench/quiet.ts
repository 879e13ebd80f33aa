import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

// A benchmark figure is taken on a quiet machine only (docs/benchmarks.md, "A sitting"): the
// load average under a bound for a while, and no other process of this project running beside
// the one measured (a test run, a service, a browser, another bench).

/** Command lines of this project's processes: the services, test runners, browsers, benches, the peer collector. */
const PROJECT_PROCESS = /vitest|services\/(receiver|consumers|dashboard|embedded|admin-cli)\/src\/main\.ts|bench\/|chromium|otelcol|clickhouse-standin|kafka\.Kafka/;

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

function parentOf(pid: number): number {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

/** This process and its ancestors, and every descendant of this process. */
function ours(all: number[]): Set<number> {
  const mine = new Set<number>();
  for (let p = process.pid; p > 1; p = parentOf(p)) mine.add(p);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) if (!mine.has(p) && mine.has(parentOf(p))) mine.add(p), (grew = true);
  }
  return mine;
}

/**
 * This project's processes that are not this sitting's own nor in `allowed` (the local stack's
 * engines the sitting runs on): "pid command" each.
 */
export function foreignProcesses(allowed: Set<number> = new Set()): string[] {
  const all = readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number);
  const mine = ours(all);
  return all.filter((p) => !mine.has(p) && !allowed.has(p) && PROJECT_PROCESS.test(cmdline(p))).map((p) => `${p} ${cmdline(p).slice(0, 120)}`);
}

export const loadAverage = () => Math.round(os.loadavg()[0] * 100) / 100;

/**
 * Resolves once the 1-minute load average has stayed under `below` for `forMs`; rejects after
 * `giveUpMs` (the machine is not quiet enough for a figure).
 */
export async function quiet(opts: { below: number; forMs: number; giveUpMs: number }, log: (m: string) => void): Promise<void> {
  const started = Date.now();
  let calmSince = 0;
  let said = 0;
  for (;;) {
    const load = loadAverage();
    const now = Date.now();
    if (load < opts.below) {
      calmSince ||= now;
      if (now - calmSince >= opts.forMs) return;
    } else calmSince = 0;
    if (now - started > opts.giveUpMs)
      throw new Error(`the load average stayed at or above ${opts.below} for ${Math.round(opts.giveUpMs / 60_000)} min (now ${load}): not quiet enough for a figure`);
    if (now - said > 30_000) {
      log(`waiting for a quiet machine: load ${load}, needs under ${opts.below} for ${opts.forMs / 1000} s`);
      said = now;
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}
