import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClickHouseStore, ensureClickHouseDatabase, migrateColumnStore, type ColumnStore } from '@devtrail/column-store';
import { KIND_TABLES, KINDS } from '@devtrail/kinds';
import { NO_STACK_REASON, STACK, stackUp } from './support/stack.ts';

// Tables made by the version before per-row retention (a TTL of RETENTION_DAYS in the DDL, error
// groups without the column) migrate to the per-row TTL: the column added with the deployment's
// days for the rows already there, the TTL changed once without rewriting, the groups' view
// filling the column; a second start changes nothing (docs/data.md#retention).
const up = await stackUp();

/**
 * The errors table and its groups as the version before wrote them. Its view's tuple() was not
 * yet CAST (groups.ts, latestTuple): a server that names a tuple's elements (24.7 to 24.8.5)
 * refuses that view, so it is made here as a server without that default made it.
 */
const before = (days: number) => [
  `CREATE TABLE errors (project_id LowCardinality(String), event_id UUID, service LowCardinality(String), environment LowCardinality(String),
     release LowCardinality(String), timestamp DateTime64(3, 'UTC'), fingerprint FixedString(64), error_type LowCardinality(String),
     error_message String, stack_trace String, severity LowCardinality(String), context String, trace_id String, user_id String, breadcrumbs String)
   ENGINE = ReplacingMergeTree PARTITION BY toYYYYMMDD(timestamp) ORDER BY (project_id, fingerprint, timestamp, event_id)
   TTL toDateTime(timestamp) + INTERVAL ${days} DAY`,
  `CREATE TABLE error_groups (project_id LowCardinality(String), fingerprint FixedString(64),
     first_seen SimpleAggregateFunction(min, DateTime64(3, 'UTC')), last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
     events AggregateFunction(uniqExact, UUID),
     latest AggregateFunction(argMax, Tuple(UUID, String, String, String, String, String, String, String), DateTime64(3, 'UTC')),
     max_severity SimpleAggregateFunction(max, UInt8))
   ENGINE = AggregatingMergeTree ORDER BY (project_id, fingerprint) TTL toDateTime(last_seen) + INTERVAL ${days} DAY`,
  `CREATE MATERIALIZED VIEW error_groups_mv TO error_groups AS
     SELECT project_id, fingerprint, min(timestamp) AS first_seen, max(timestamp) AS last_seen, uniqExactState(event_id) AS events,
            argMaxState(tuple(event_id, error_type, error_message, stack_trace, severity, service, release, environment), timestamp) AS latest,
            max(multiIf(severity = 'critical', 4, severity = 'high', 3, severity = 'medium', 2, 1)) AS max_severity
       FROM errors GROUP BY project_id, fingerprint
     SETTINGS enable_named_columns_in_function_tuple = 0`,
];

const error = (fingerprint: string, extra: Record<string, unknown> = {}) => ({
  project_id: 'p',
  event_id: randomUUID(),
  service: 's',
  environment: 'e',
  release: '',
  timestamp: new Date().toISOString().replace('T', ' ').replace('Z', ''),
  fingerprint,
  error_type: 'E',
  error_message: 'm',
  stack_trace: 'st',
  severity: 'high',
  context: '{}',
  trace_id: '',
  user_id: '',
  breadcrumbs: '[]',
  ...extra,
});

describe.skipIf(!up)(`migration to per-row retention${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let store: ColumnStore;
  const database = `dt_migr_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    await ensureClickHouseDatabase({ url: STACK.clickhouseUrl, database });
    store = createClickHouseStore({ url: STACK.clickhouseUrl, database });
    for (const sql of before(45)) await store.command(sql);
    await store.insert('errors', [error('a'.repeat(64))]);
  });
  afterAll(async () => {
    await store?.command(`DROP DATABASE IF EXISTS ${database}`);
    await store?.close();
  });

  it('adds the column with the days in force, changes the TTL once, and the groups follow', async () => {
    const changes = await migrateColumnStore(store, [KINDS.error.tableDef], { retentionDays: 45 });
    expect(changes).toEqual([
      'added column errors.received_at',
      'added column errors.previous_fingerprint',
      'added column errors.retention_days',
      'added index errors.idx_trace',
      'applied errors: ttl-per-row-retention',
      'applied errors: error-groups-per-row-retention',
      'applied errors: error-groups-unnamed-latest-tuple',
    ]);
    expect(await migrateColumnStore(store, [KINDS.error.tableDef], { retentionDays: 45 })).toEqual([]);
    const ddl = async (t: string) =>
      (await store.query<{ q: string }>('SELECT create_table_query AS q FROM system.tables WHERE database = currentDatabase() AND name = {t:String}', { t }))[0].q;
    expect(await ddl('errors')).toContain('TTL toDateTime(timestamp) + toIntervalDay(retention_days)');
    expect(await ddl('error_groups')).toContain('TTL toDateTime(last_seen) + toIntervalDay(retention_days)');
    // The view's query is the one every version accepts: its tuple cast to the state's type.
    expect(await ddl('error_groups_mv')).toMatch(/argMaxState\(CAST\(.*event_id, error_type.*'Tuple\(UUID, String, String/s);
    expect(await ddl('error_groups_mv')).not.toContain('enable_named_columns_in_function_tuple');
    await store.insert('errors', [error('b'.repeat(64), { retention_days: 7 })]);
    expect(await store.query('SELECT left(fingerprint, 1) AS f, retention_days FROM errors ORDER BY f')).toEqual([
      { f: 'a', retention_days: 45 },
      { f: 'b', retention_days: 7 },
    ]);
    expect(await store.query('SELECT left(fingerprint, 1) AS f, max(retention_days) AS r, uniqExactMerge(events) AS n FROM error_groups GROUP BY f ORDER BY f')).toEqual([
      { f: 'a', r: 45, n: '1' },
      { f: 'b', r: 7, n: '1' },
    ]);
    // The other kinds' tables come up on the same database as a fresh deployment would make them.
    expect(await migrateColumnStore(store, KIND_TABLES, { retentionDays: 45 })).toEqual([
      'created logs',
      'applied logs: ttl-per-row-retention',
      'created spans',
      'applied spans: ttl-per-row-retention',
      'applied spans: span-roots-backfill',
      'created llm',
      'applied llm: ttl-per-row-retention',
      'created sessions',
      'applied sessions: ttl-per-row-retention',
      'created metrics',
      'applied metrics: ttl-per-row-retention',
      'created scores',
      'applied scores: ttl-per-row-retention',
    ]);
  });
});
