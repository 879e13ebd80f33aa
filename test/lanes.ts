// Which suites run where (docs/testing.md). vitest.config.ts turns each lane into a project:
// the parallel lanes share the run's workers, then the serial tail runs one file at a time.

/** Every test file of the repository. */
export const ALL = ['libs/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * Unit suites are named *.unit.test.ts: they run in the test process alone, with no database
 * engine (not even chdb or PGlite), no child process and no browser.
 */
export const UNIT = ALL.map((glob) => glob.replace(/\*\.test\.ts$/, '*.unit.test.ts'));

/**
 * The serial tail, after every parallel lane has finished: the suites whose assertions are
 * latency or CPU bounds (a deadline, a stall, a visibility or propagation time), measured on a
 * machine that runs nothing else of this run. The fault suites among them break engines of their
 * own (support/private-engine.ts), never the shared stack's. test/final checks what the whole
 * run did, so it comes last.
 */
export const SERIAL = [
  'test/e2e/faults-kafka.test.ts',
  'test/e2e/faults-postgres.test.ts',
  'services/receiver/test/stall.test.ts',
  'services/receiver/test/waits-bounded.test.ts',
  'test/e2e/tenant-bounds.test.ts',
  'test/e2e/tenant-attacks.test.ts',
  'test/e2e/logs-pipeline.test.ts',
  'test/e2e/replicas.test.ts',
  'libs/alerting/test/deliverer.test.ts',
  'test/final/dead-letters.test.ts',
];

/**
 * Suites on the shared local stack (Kafka, PostgreSQL, the ClickHouse stand-in), each in a
 * namespace of its own (topic prefix, consumer groups, databases), so they run side by side.
 * Every other suite that is neither unit nor serial is in-process: chdb, PGlite, embedded
 * processes, Chromium, builds; `npm run test:fast` runs those with the unit suites.
 */
export const STACK = [
  'libs/column-store/test/clickhouse-store.test.ts',
  'libs/consumer-kit/test/group-dead-letters.test.ts',
  'libs/consumer-kit/test/published-package.test.ts',
  'libs/kinds/test/search-sql.test.ts',
  'libs/message-log/test/kafka-log.test.ts',
  'libs/message-log/test/kafka-rebalance.test.ts',
  'libs/relational-store/test/pg-store.test.ts',
  'libs/relational-store/test/prompts-pg.test.ts',
  'libs/runtime/test/assembled-read-limits.test.ts',
  'libs/sdk/test/integration-real-pipeline.test.ts',
  'services/consumers/test/events-per-minute.test.ts',
  'services/consumers/test/sink-versions.test.ts',
  'services/receiver/test/postgres-outage.test.ts',
  'test/clickhouse-schema.test.ts',
  'test/deploy/*.test.ts',
  'test/e2e/alerts-pipeline.test.ts',
  'test/e2e/clickhouse-version.test.ts',
  'test/e2e/data-deletion.test.ts',
  'test/e2e/data-policy.test.ts',
  'test/e2e/every-kind.test.ts',
  'test/e2e/faults-broker-loss.test.ts',
  'test/e2e/faults-consumers.test.ts',
  'test/e2e/idempotency-any-key.test.ts',
  'test/e2e/metrics-outcomes.test.ts',
  'test/e2e/migrate-concurrently.test.ts',
  'test/e2e/otlp-nextjs.test.ts',
  'test/e2e/otlp-sdk.test.ts',
  'test/e2e/prompts-split.test.ts',
  'test/e2e/python-consumer.test.ts',
  'test/e2e/replay.test.ts',
  'test/e2e/replicas-start-together.test.ts',
  'test/e2e/retry-after-503.test.ts',
  'test/e2e/tenant-limits.test.ts',
  'test/fuzz/*.test.ts',
  'test/retention-migration.test.ts',
];

/**
 * The suites that also run against the oldest ClickHouse devtrail supports
 * (docs/deployment.md#clickhouse-version), at CLICKHOUSE_FLOOR_URL: every SQL family devtrail
 * sends (DDL and migrations, inserts, reads and the read API, search, deletion, retention).
 */
export const FLOOR = [
  'test/floor/*.test.ts',
  'libs/column-store/test/clickhouse-store.test.ts',
  'libs/kinds/test/search-sql.test.ts',
  'libs/kinds/test/llm-cost-sql.test.ts',
  'test/retention-migration.test.ts',
  'test/clickhouse-schema.test.ts',
  'test/kind-fields.test.ts',
  'libs/kinds/test/metric-series.test.ts',
  'libs/kinds/test/score-reads.test.ts',
  'services/dashboard/test/explore-api.test.ts',
  'services/dashboard/test/prompts-api.test.ts',
  'test/e2e/data-deletion.test.ts',
];

export const EXCLUDE = ['**/node_modules/**', '**/dist/**'];

/** The lanes as include/exclude pairs: every file is in exactly one of unit, inproc, stack, serial. */
export const LANES = {
  unit: { include: UNIT, exclude: EXCLUDE },
  inproc: { include: ALL, exclude: [...EXCLUDE, ...UNIT, ...SERIAL, ...STACK, 'test/floor/**'] },
  stack: { include: STACK, exclude: [...EXCLUDE, ...SERIAL] },
  serial: { include: SERIAL, exclude: EXCLUDE },
  floor: { include: FLOOR, exclude: EXCLUDE },
};
