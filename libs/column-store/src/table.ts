// A table of the column store as a value: kinds declare theirs (libs/kinds), and the
// migration derives the DDL from it, creates what is missing and adds what a newer
// version declares (migrations.ts). Every statement is idempotent, so any number of
// replicas may run it at once.

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
  /** More statements after the table (a materialised view and its target), each IF NOT EXISTS. */
  after?(retentionDays: number, table: string): string[];
}

/** The table's CREATE statement. */
export function createTableSql(t: TableDef, retentionDays: number): string {
  const lines = [...t.columns.map((c) => `${c.name} ${c.sql}`), ...(t.indexes ?? []).map((i) => `INDEX ${i}`)];
  return `CREATE TABLE IF NOT EXISTS ${t.name} (\n  ${lines.join(',\n  ')}\n) ENGINE = ${t.engine}
PARTITION BY ${t.partitionBy}
ORDER BY ${t.orderBy}
TTL ${ttlExpression(t.ttlColumn, retentionDays)}`;
}

export const ttlExpression = (column: string, retentionDays: number) => `toDateTime(${column}) + INTERVAL ${Math.max(1, Math.floor(retentionDays))} DAY`;
