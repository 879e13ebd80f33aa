import {
  clampDays,
  clusteredTableStatements,
  localTable,
  onCluster,
  qualified,
  RETENTION_COLUMN,
  ttlExpression,
  type ClusteredTable,
  type ClusterTarget,
  type TableStep,
} from '@devtrail/column-store';
import { COLUMN } from '@devtrail/column-store/store-domain';

// Error groups: one row per (project, fingerprint) after merges, kept by a materialised view
// over the errors table. Every column merges idempotently, so re-inserting an event
// (at-least-once delivery) never changes a group; counts are distinct event ids. A group
// lives as long as the longest retention of its events after its last one (docs/data.md).
// docs/fingerprint.md says how events are grouped.

const TIME = COLUMN.time.sql;
export const GROUPS_TABLE = 'error_groups';
const VIEW = `${GROUPS_TABLE}_mv`;

/** The latest occurrence's fields, in the order of the `latest` state's tuple (read.ts reads it by position). */
const LATEST: ReadonlyArray<readonly [column: string, type: string]> = [
  ['event_id', 'UUID'],
  ['error_type', 'String'],
  ['error_message', 'String'],
  ['stack_trace', 'String'],
  ['severity', 'String'],
  ['service', 'String'],
  ['release', 'String'],
  ['environment', 'String'],
];
const LATEST_TYPE = `Tuple(${LATEST.map(([, type]) => type).join(', ')})`;

/**
 * The latest occurrence as the state column's unnamed tuple type. ClickHouse 24.7 to 24.8.5
 * name a tuple()'s elements after its columns (enable_named_columns_in_function_tuple on by
 * default), and an argMax state of a named tuple does not convert to the column's unnamed
 * one: the CAST makes the type the same on every version (docs/deployment.md#clickhouse-version).
 */
export const latestTuple = () => `CAST(tuple(${LATEST.map(([column]) => column).join(', ')}), '${LATEST_TYPE}')`;

/** The view's query; `where` narrows it to rebuild some groups from the errors table (a deletion, docs/data.md). */
export function groupsSelect(errorsTable: string, where = ''): string {
  return `SELECT project_id, fingerprint,
             min(timestamp) AS first_seen,
             max(timestamp) AS last_seen,
             uniqExactState(event_id) AS events,
             argMaxState(${latestTuple()}, timestamp) AS latest,
             max(multiIf(severity = 'critical', 4, severity = 'high', 3, severity = 'medium', 2, 1)) AS max_severity,
             max(${RETENTION_COLUMN}) AS ${RETENTION_COLUMN}
        FROM ${errorsTable}${where ? ` WHERE ${where}` : ''}
       GROUP BY project_id, fingerprint`;
}

/** The groups' table: its columns merge idempotently (every one an aggregate state or a simple aggregate). */
const groupsTable = (retentionDays: number): ClusteredTable => ({
  name: GROUPS_TABLE,
  columns: [
    { name: 'project_id', sql: 'LowCardinality(String)' },
    { name: 'fingerprint', sql: 'FixedString(64)' },
    { name: 'first_seen', sql: `SimpleAggregateFunction(min, ${TIME})` },
    { name: 'last_seen', sql: `SimpleAggregateFunction(max, ${TIME})` },
    { name: 'events', sql: 'AggregateFunction(uniqExact, UUID)' },
    { name: 'latest', sql: `AggregateFunction(argMax, ${LATEST_TYPE}, ${TIME})` },
    { name: 'max_severity', sql: 'SimpleAggregateFunction(max, UInt8)' },
    groupsRetentionColumn(retentionDays),
  ],
  engine: 'AggregatingMergeTree',
  orderBy: '(project_id, fingerprint)',
  ttl: ttlExpression('last_seen'),
});

/**
 * The groups on a cluster (docs/deployment.md#a-clickhouse-cluster): the table as every clustered
 * table, and on every node a view from the node's own errors to its own groups; the read API merges
 * the groups' states over the shards through the Distributed table.
 */
function clusterGroupStatements(errorsTable: string, retentionDays: number, c: ClusterTarget): string[] {
  return [
    ...clusteredTableStatements(groupsTable(retentionDays), c),
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${qualified(c, VIEW)} ${onCluster(c)} TO ${qualified(c, localTable(GROUPS_TABLE))} AS ${groupsSelect(qualified(c, localTable(errorsTable)))}`,
  ];
}

export function errorGroupStatements(errorsTable: string, retentionDays: number, cluster?: ClusterTarget): string[] {
  if (cluster) return clusterGroupStatements(errorsTable, retentionDays, cluster);
  const t = groupsTable(retentionDays);
  return [
    `CREATE TABLE IF NOT EXISTS ${GROUPS_TABLE} (
      ${t.columns.map((c) => `${c.name} ${c.sql}`).join(',\n      ')}
    ) ENGINE = ${t.engine}
    ORDER BY ${t.orderBy}
    TTL ${t.ttl}`,
    // A table made before retention was per row lacks the column the view's query fills (even
    // an existing view's query is checked against its target): added first, a no-op once there.
    `ALTER TABLE ${GROUPS_TABLE} ADD COLUMN IF NOT EXISTS ${RETENTION_COLUMN} ${groupsRetentionColumn(retentionDays).sql}`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${VIEW} TO ${GROUPS_TABLE} AS ${groupsSelect(errorsTable)}`,
  ];
}

const groupsRetentionColumn = (days: number) => ({ name: RETENTION_COLUMN, sql: `SimpleAggregateFunction(max, UInt16) DEFAULT ${clampDays(days)}` });

/** Groups made before retention was per row: the view's query that fills the column, the TTL (no part rewritten). */
export const groupsRetentionStep: TableStep = {
  id: 'error-groups-per-row-retention',
  statements: (_days, errorsTable) => [
    `ALTER TABLE ${VIEW} MODIFY QUERY ${groupsSelect(errorsTable)}`,
    `ALTER TABLE ${GROUPS_TABLE} MODIFY TTL ${ttlExpression('last_seen')} SETTINGS materialize_ttl_after_modify = 0`,
  ],
};

/**
 * A view made before the CAST (latestTuple) fails every insert into the errors table once the
 * server is upgraded to a version that names the tuple's elements: its query is replaced.
 */
export const groupsUnnamedTupleStep: TableStep = {
  id: 'error-groups-unnamed-latest-tuple',
  statements: (_days, errorsTable) => [`ALTER TABLE ${VIEW} MODIFY QUERY ${groupsSelect(errorsTable)}`],
};
