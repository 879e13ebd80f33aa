import { COLUMN } from '@devtrail/contract';
import { ColumnStoreError, type ColumnStore } from './column-store.ts';

// Column types whose domain the receiver enforces at the door (contract store-domain.ts).
const TIME = COLUMN.time.sql;
const COUNT = COLUMN.count.sql;
const AMOUNT = COLUMN.amount.sql;

// ClickHouse tables, each shaped for the dashboard's reads. Rows are de-duplicated by
// event id (ReplacingMergeTree keyed on it, read with FINAL; error groups count
// uniqExact(event_id)) so that a replay after a crash never double-counts.
// Every statement is IF NOT EXISTS: migrations can run any number of times.

export interface SchemaOptions {
  retentionDays: number;
}

export function columnStoreMigrations({ retentionDays }: SchemaOptions): Array<{ version: number; statements: string[] }> {
  const days = Math.max(1, Math.floor(retentionDays));
  return [
    {
      version: 1,
      statements: [
        // Logs explorer: project + time range first, then level/service/trace/text filters.
        // Partitioned by receive day, so a batch with wild client timestamps never
        // touches more than two partitions.
        `CREATE TABLE IF NOT EXISTS logs (
          project_id LowCardinality(String),
          event_id UUID,
          timestamp ${TIME},
          received_at ${TIME},
          level LowCardinality(String),
          service LowCardinality(String),
          environment LowCardinality(String),
          release LowCardinality(String),
          message String,
          metadata String,
          trace_id String,
          span_id String,
          request_id String,
          context LowCardinality(String),
          INDEX idx_level level TYPE set(8) GRANULARITY 4,
          INDEX idx_service service TYPE set(256) GRANULARITY 4,
          INDEX idx_trace trace_id TYPE bloom_filter(0.01) GRANULARITY 4,
          INDEX idx_request request_id TYPE bloom_filter(0.01) GRANULARITY 4,
          INDEX idx_message lower(message) TYPE ngrambf_v1(3, 65536, 2, 0) GRANULARITY 4
        ) ENGINE = ReplacingMergeTree
        PARTITION BY toYYYYMMDD(received_at)
        ORDER BY (project_id, timestamp, event_id)
        TTL toDateTime(received_at) + INTERVAL ${days} DAY`,
      ],
    },
    {
      version: 2,
      statements: [
        `CREATE TABLE IF NOT EXISTS errors (
          project_id LowCardinality(String),
          event_id UUID,
          timestamp ${TIME},
          fingerprint FixedString(64),
          error_type LowCardinality(String),
          error_message String,
          stack_trace String,
          severity LowCardinality(String),
          service LowCardinality(String),
          environment LowCardinality(String),
          release LowCardinality(String),
          context String,
          trace_id String,
          user_id String,
          breadcrumbs String,
          INDEX idx_trace trace_id TYPE bloom_filter(0.01) GRANULARITY 4
        ) ENGINE = ReplacingMergeTree
        PARTITION BY toYYYYMMDD(timestamp)
        ORDER BY (project_id, fingerprint, timestamp, event_id)
        TTL toDateTime(timestamp) + INTERVAL ${days} DAY`,
        // One row per group after merges; every column merges idempotently, so
        // re-inserting an event (at-least-once delivery) never changes a group.
        `CREATE TABLE IF NOT EXISTS error_groups (
          project_id LowCardinality(String),
          fingerprint FixedString(64),
          first_seen SimpleAggregateFunction(min, ${TIME}),
          last_seen SimpleAggregateFunction(max, ${TIME}),
          events AggregateFunction(uniqExact, UUID),
          latest AggregateFunction(argMax, Tuple(UUID, String, String, String, String, String, String, String), ${TIME}),
          max_severity SimpleAggregateFunction(max, UInt8)
        ) ENGINE = AggregatingMergeTree
        ORDER BY (project_id, fingerprint)
        TTL toDateTime(last_seen) + INTERVAL ${days} DAY`,
        `CREATE MATERIALIZED VIEW IF NOT EXISTS error_groups_mv TO error_groups AS
          SELECT project_id, fingerprint,
                 min(timestamp) AS first_seen,
                 max(timestamp) AS last_seen,
                 uniqExactState(event_id) AS events,
                 argMaxState(tuple(event_id, error_type, error_message, stack_trace, severity, service, release, environment), timestamp) AS latest,
                 max(multiIf(severity = 'critical', 4, severity = 'high', 3, severity = 'medium', 2, 1)) AS max_severity
            FROM errors
           GROUP BY project_id, fingerprint`,
      ],
    },
    {
      version: 3,
      statements: [
        // Ordered by trace: a whole trace is one contiguous read.
        `CREATE TABLE IF NOT EXISTS spans (
          project_id LowCardinality(String),
          event_id UUID,
          trace_id String,
          span_id String,
          parent_span_id String,
          operation LowCardinality(String),
          start_time ${TIME},
          duration_ms ${COUNT},
          status LowCardinality(String),
          service LowCardinality(String),
          environment LowCardinality(String),
          release LowCardinality(String),
          metadata String,
          received_at ${TIME},
          INDEX idx_start start_time TYPE minmax GRANULARITY 1,
          INDEX idx_operation operation TYPE set(1024) GRANULARITY 4
        ) ENGINE = ReplacingMergeTree
        PARTITION BY toYYYYMMDD(received_at)
        ORDER BY (project_id, trace_id, span_id, event_id)
        TTL toDateTime(received_at) + INTERVAL ${days} DAY`,
        `CREATE TABLE IF NOT EXISTS llm_usage (
          project_id LowCardinality(String),
          event_id UUID,
          timestamp ${TIME},
          model LowCardinality(String),
          provider LowCardinality(String),
          operation LowCardinality(String),
          input_tokens ${COUNT},
          output_tokens ${COUNT},
          cost_usd ${AMOUNT},
          latency_ms ${COUNT},
          service LowCardinality(String),
          environment LowCardinality(String),
          release LowCardinality(String),
          metadata String
        ) ENGINE = ReplacingMergeTree
        PARTITION BY toYYYYMM(timestamp)
        ORDER BY (project_id, timestamp, event_id)
        TTL toDateTime(timestamp) + INTERVAL ${days} DAY`,
      ],
    },
  ];
}

// Replicas started together all run these at once (no lock in ClickHouse): every statement is
// IF NOT EXISTS, and the server's "already exists" to a statement that lost a race to the same
// statement of another process means it is done.
const ALREADY_EXISTS = new Set(['57', '82']); // TABLE_ALREADY_EXISTS, DATABASE_ALREADY_EXISTS

async function idempotent(store: ColumnStore, sql: string): Promise<void> {
  await store.command(sql).catch((err: unknown) => {
    if (!(err instanceof ColumnStoreError && err.code !== undefined && ALREADY_EXISTS.has(err.code))) throw err;
  });
}

export async function migrateColumnStore(store: ColumnStore, opts: SchemaOptions): Promise<number[]> {
  await idempotent(
    store,
    `CREATE TABLE IF NOT EXISTS schema_migrations (version UInt32, applied_at DateTime DEFAULT now()) ENGINE = ReplacingMergeTree ORDER BY version`,
  );
  const done = new Set((await store.query<{ version: number }>('SELECT version FROM schema_migrations FINAL')).map((r) => Number(r.version)));
  const applied: number[] = [];
  for (const m of columnStoreMigrations(opts)) {
    if (done.has(m.version)) continue;
    for (const sql of m.statements) await idempotent(store, sql);
    await store.insert('schema_migrations', [{ version: m.version }]);
    applied.push(m.version);
  }
  return applied;
}
