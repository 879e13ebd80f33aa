import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { ROOT } from './root.ts';

// Every run leaves .devtrail/test-results/durations.json beside vitest's own report: each file's
// wall time from the moment its worker took it to its end (imports and hooks included), slowest
// first, and each lane's sum and span, so the slow files are visible at a glance (docs/testing.md).

interface FileTime {
  file: string;
  lane: string;
  ms: number;
  state: string;
  tests: number;
}

export const DURATIONS_FILE = join(ROOT, '.devtrail/test-results/durations.json');

export default class DurationsReporter implements Reporter {
  private started = new Map<string, number>();
  private files: FileTime[] = [];
  private lanes = new Map<string, { first: number; last: number }>();
  private runStart = Date.now();

  onTestRunStart() {
    this.runStart = Date.now();
  }

  onTestModuleQueued(m: TestModule) {
    this.started.set(m.moduleId, Date.now());
  }

  onTestModuleStart(m: TestModule) {
    if (!this.started.has(m.moduleId)) this.started.set(m.moduleId, Date.now());
  }

  onTestModuleEnd(m: TestModule) {
    const now = Date.now();
    const begin = this.started.get(m.moduleId) ?? now;
    const lane = m.project.name;
    const span = this.lanes.get(lane) ?? { first: begin, last: now };
    this.lanes.set(lane, { first: Math.min(span.first, begin), last: Math.max(span.last, now) });
    this.files.push({ file: relative(ROOT, m.moduleId), lane, ms: now - begin, state: m.state(), tests: [...m.children.allTests()].length });
  }

  onTestRunEnd() {
    const files = [...this.files].sort((a, b) => b.ms - a.ms);
    const lanes = Object.fromEntries(
      [...this.lanes].map(([name, span]) => {
        const mine = files.filter((f) => f.lane === name);
        return [name, { files: mine.length, sumMs: mine.reduce((n, f) => n + f.ms, 0), spanMs: span.last - span.first }];
      }),
    );
    const report = {
      startedAt: new Date(this.runStart).toISOString(),
      wallMs: Date.now() - this.runStart,
      workers: process.env.DEVTRAIL_TEST_WORKERS ?? null,
      seed: process.env.DEVTRAIL_TEST_SEED ?? null,
      lanes,
      files,
    };
    mkdirSync(join(ROOT, '.devtrail/test-results'), { recursive: true });
    writeFileSync(DURATIONS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  }
}
