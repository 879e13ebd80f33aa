import { defineConfig } from 'vitest/config';
import { FinalChecksLast } from './test/support/final-checks-last.ts';

const ALL = ['libs/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'deploy/*/test/**/*.test.ts', 'test/**/*.test.ts'];

// Unit suites are named *.unit.test.ts: they run in this process alone, with no database
// engine (not even chdb or PGlite), no child process and no browser, so `npm run test:unit`
// needs no local stack. Every other suite is in "integration": a new file runs there unless
// its name says it is a unit suite.
const UNIT = ALL.map((glob) => glob.replace(/\*\.test\.ts$/, '*.unit.test.ts'));
const EXCLUDE = ['**/node_modules/**', '**/dist/**'];

// One run covers both projects. Files run one at a time (fileParallelism is global, across
// projects): several integration suites stop and start shared engines (Kafka, ClickHouse),
// which must never overlap with another suite's traffic. test/final/* runs last: it checks what
// the whole run did (dead letters), from a baseline the integration project's global setup takes.
export default defineConfig({
  test: {
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    sequence: { sequencer: FinalChecksLast },
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT, exclude: EXCLUDE } },
      { extends: true, test: { name: 'integration', include: ALL, exclude: [...EXCLUDE, ...UNIT], globalSetup: ['test/support/global-setup.ts'] } },
    ],
  },
});
