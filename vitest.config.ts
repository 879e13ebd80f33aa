import { defineConfig } from 'vitest/config';
import { FinalChecksLast } from './test/support/final-checks-last.ts';

const ALL = ['libs/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'deploy/*/test/**/*.test.ts', 'test/**/*.test.ts'];

// Unit suites are named *.unit.test.ts: they run in this process alone, with no database
// engine (not even chdb or PGlite), no child process and no browser, so `npm run test:unit`
// needs no local stack. Every other suite is in "integration": a new file runs there unless
// its name says it is a unit suite.
const UNIT = ALL.map((glob) => glob.replace(/\*\.test\.ts$/, '*.unit.test.ts'));
const EXCLUDE = ['**/node_modules/**', '**/dist/**'];

// The suites that also run against the oldest ClickHouse devtrail supports (docs/deployment.md#clickhouse-version):
// the floor stand-in (deploy/scripts/clickhouse-floor.sh) at CLICKHOUSE_FLOOR_URL, which test.sh sets. Every
// SQL family devtrail sends: DDL and migrations, inserts, reads and the read API, search, deletion, retention.
const FLOOR = [
  'test/floor/*.test.ts',
  'libs/column-store/test/clickhouse-store.test.ts',
  'libs/kinds/test/log-search-sql.test.ts',
  'test/retention-migration.test.ts',
  'test/clickhouse-schema.test.ts',
  'test/kind-fields.test.ts',
  'services/dashboard/test/explore-api.test.ts',
  'test/e2e/data-deletion.test.ts',
];
const floorUrl = process.env.CLICKHOUSE_FLOOR_URL;

// One run covers both projects. Files run one at a time (fileParallelism is global, across
// projects): several integration suites stop and start shared engines (Kafka, ClickHouse),
// which must never overlap with another suite's traffic. test/final/* runs last: it checks what
// the whole run did (dead letters), from a baseline the integration project's global setup takes.
export default defineConfig({
  test: {
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // expect.poll waits for a page or a pipeline to catch up; 1 s (vitest's default) is too
    // short on a loaded 2-core machine. A poll that passes returns at once, so this costs
    // time only when a test fails.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    sequence: { sequencer: FinalChecksLast },
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT, exclude: EXCLUDE } },
      { extends: true, test: { name: 'integration', include: ALL, exclude: [...EXCLUDE, ...UNIT, 'test/floor/**'], globalSetup: ['test/support/global-setup.ts'] } },
      ...(floorUrl
        ? [
            {
              extends: true as const,
              test: {
                name: 'floor',
                include: FLOOR,
                exclude: EXCLUDE,
                env: { CLICKHOUSE_URL: floorUrl, DEVTRAIL_TEST_CLICKHOUSE_URL: floorUrl },
              },
            },
          ]
        : []),
    ],
  },
});
