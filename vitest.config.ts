import { defineConfig } from 'vitest/config';
import { FinalChecksLast } from './test/support/final-checks-last.ts';

const ALL = ['libs/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'deploy/*/test/**/*.test.ts', 'test/**/*.test.ts'];

// Unit suites run in this process alone: no database engine (not even chdb or PGlite), no child
// process, no browser, so `npm run test:unit` needs no local stack. Every other suite is in
// "integration", so a new test file runs there unless it is listed here.
const UNIT = [
  'libs/config/test/**/*.test.ts',
  'libs/contract/test/**/*.test.ts',
  'libs/consumer-kit/test/**/*.test.ts',
  'libs/metrics/test/**/*.test.ts',
  'libs/column-store/test/time-range.test.ts',
  'libs/message-log/test/memory-log.test.ts',
  'libs/message-log/test/kafka-partitioner.test.ts',
  'libs/sdk/test/!(build-smoke|integration-real-pipeline).test.ts',
  'deploy/clickhouse-standin/test/bound-params.test.ts',
  'deploy/clickhouse-standin/test/clickhouse-exception.test.ts',
];
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
