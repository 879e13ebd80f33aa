// A table of the column store as a value: kinds declare theirs (libs/kinds), and the
// migration derives the DDL from it, creates what is missing and adds what a newer
// version declares (migrations.ts). Every statement is idempotent, so any number of
// replicas may run it at once.
//
// Retention is per row (docs/data.md): every table has a `retention_days` column, written
// at insert from the project's setting, and its TTL counts that many days from the row's
// TTL column. A project changing its setting changes what new rows carry; no part is
// rewritten. Rows written before the column existed read its DEFAULT (the deployment's
// RETENTION_DAYS when the column was added).

export const RETENTION_COLUMN = 'retention_days';
/** The longest retention a project may set, in days (ten years; the column is a UInt16). */
export const MAX_RETENTION_DAYS = 3650;

/** Where the cluster schema goes (cluster-schema.ts, docs/deployment.md#a-clickhouse-cluster). */
export interface ClusterTarget {
  /** A cluster of the servers' remote_servers. */
  cluster: string;
  database: string;
}

export interface TableDef {
  name: string;
  /** Names the table had in older versions: such a table is renamed, not created anew. */
  formerly?: readonly string[];
  columns: ReadonlyArray<{ name: string; sql: string }>;
  /** Data-skipping indexes: `name expression TYPE type GRANULARITY n`. */
  indexes?: readonly string[];
  engine: string;
  partitionBy: string;
  orderBy: string;
  /** The time column a row's retention counts from. */
  ttlColumn: string;
  /** The time column the read API's time ranges (and an operator's deletion by time range) filter on. */
  timeColumn: string;
  /**
   * More statements after the table (a materialised view and its target), each IF NOT EXISTS. With
   * `cluster`, their form on a cluster (cluster-schema.ts): `table` is then the Distributed table,
   * and `localTable(table)` the one a view reads.
   */
  after?(retentionDays: number, table: string, cluster?: ClusterTarget): string[];
  /**
   * One-off changes a declaration cannot express (a new TTL expression, a view's new query),
   * each applied once to a table that exists, in order, and recorded (migrations.ts). Every
   * statement must be idempotent: replicas starting together may both run a step.
   */
  steps?: ReadonlyArray<TableStep>;
}

export interface TableStep {
  /** Unique within the table, never reused: the record that it was applied. */
  id: string;
  statements(retentionDays: number, table: string): string[];
}

/** The retention column as a table declares it; DEFAULT is for rows written before it existed. */
export const retentionColumn = (retentionDays: number) => ({ name: RETENTION_COLUMN, sql: `UInt16 DEFAULT ${clampDays(retentionDays)}` });

/** Every column of the table: the declared ones and the retention column. */
export const columnsOf = (t: TableDef, retentionDays: number) => [...t.columns, retentionColumn(retentionDays)];

/** The table's CREATE statement. */
export function createTableSql(t: TableDef, retentionDays: number): string {
  const lines = [...columnsOf(t, retentionDays).map((c) => `${c.name} ${c.sql}`), ...(t.indexes ?? []).map((i) => `INDEX ${i}`)];
  return `CREATE TABLE IF NOT EXISTS ${t.name} (\n  ${lines.join(',\n  ')}\n) ENGINE = ${t.engine}
PARTITION BY ${t.partitionBy}
ORDER BY ${t.orderBy}
TTL ${ttlExpression(t.ttlColumn)}`;
}

/** A row expires `retention_days` after its TTL column. */
export const ttlExpression = (column: string) => `toDateTime(${column}) + toIntervalDay(${RETENTION_COLUMN})`;

/**
 * The TTL as a one-off step for a table made before retention was per row. No part is
 * rewritten (materialize_ttl_after_modify = 0): existing rows read the column's DEFAULT,
 * RETENTION_DAYS when the column was added (the days they had, unless it was changed since).
 */
export const perRowRetentionStep = (column: string): TableStep => ({
  id: 'ttl-per-row-retention',
  statements: (_days, table) => [`ALTER TABLE ${table} MODIFY TTL ${ttlExpression(column)} SETTINGS materialize_ttl_after_modify = 0`],
});

/**
 * A condition true for rows still within their retention, and within `param` days (the
 * project's current setting, a UInt16 query parameter): what the read API may return. TTL
 * merges remove expired rows some time after they expire; reads never show them meanwhile.
 */
export const withinRetention = (column: string, param = 'retention') => `toDateTime(${column}) + toIntervalDay(least(${RETENTION_COLUMN}, {${param}:UInt16})) > now()`;

export const clampDays = (days: number) => Math.min(MAX_RETENTION_DAYS, Math.max(1, Math.floor(days)));
