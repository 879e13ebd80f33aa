import { columnsOf, ttlExpression, type ClusterTarget, type TableDef } from './table.ts';

// The schema on a ClickHouse cluster (docs/deployment.md#a-clickhouse-cluster): every table of the
// single-server schema becomes `<name>_local`, a Replicated…MergeTree created ON CLUSTER on every
// node, and `<name>`, a Distributed table over it with the same columns, so that inserts and reads
// keep the names they use on one server. Rows are sharded by a hash of the table's sorting key:
// rows a ReplacingMergeTree merges (the same event written twice) always land on the same shard,
// where FINAL and the merges see both.

/** A table as the cluster schema creates it: the local replicated table and the Distributed one in front. */
export interface ClusteredTable {
  name: string;
  columns: ReadonlyArray<{ name: string; sql: string }>;
  indexes?: readonly string[];
  /** The single-server engine (`ReplacingMergeTree`, `AggregatingMergeTree(...)`); its Replicated form is derived. */
  engine: string;
  partitionBy?: string;
  orderBy: string;
  ttl?: string;
}

export const localTable = (name: string) => `${name}_local`;

const identifier = (name: string) => (/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name) ? name : `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``);
const literal = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** `ON CLUSTER <name>`, for every statement of the cluster schema. */
export const onCluster = (c: ClusterTarget) => `ON CLUSTER ${identifier(c.cluster)}`;

/** `<database>.<table>`: statements run ON CLUSTER name their database (another node's default may differ). */
export const qualified = (c: ClusterTarget, table: string) => `${identifier(c.database)}.${identifier(table)}`;

/**
 * The replicated form of a MergeTree engine: its Keeper path is the shard's (the `{shard}` and
 * `{replica}` macros of each server's config) and the table's, and its own arguments follow.
 */
export function replicatedEngine(engine: string): string {
  const m = /^\s*(\w*MergeTree)\s*(?:\(([\s\S]*)\))?\s*$/.exec(engine);
  if (!m) throw new Error(`not a MergeTree engine: ${engine}`);
  const own = m[2]?.trim();
  return `Replicated${m[1]}('/clickhouse/tables/{shard}/{database}/{table}', '{replica}'${own ? `, ${own}` : ''})`;
}

/** The sharding key: a hash of the sorting key, so that rows merged by it share a shard. */
export const shardingKey = (orderBy: string) => `cityHash64(${orderBy.trim().replace(/^\(([\s\S]*)\)$/, '$1')})`;

/** The local table and the Distributed table in front of it, each CREATE … IF NOT EXISTS … ON CLUSTER. */
export function clusteredTableStatements(t: ClusteredTable, c: ClusterTarget): string[] {
  const columns = t.columns.map((col) => `${col.name} ${col.sql}`);
  const local = [...columns, ...(t.indexes ?? []).map((i) => `INDEX ${i}`)];
  return [
    `CREATE TABLE IF NOT EXISTS ${qualified(c, localTable(t.name))} ${onCluster(c)} (\n  ${local.join(',\n  ')}\n) ENGINE = ${replicatedEngine(t.engine)}${
      t.partitionBy ? `\nPARTITION BY ${t.partitionBy}` : ''
    }\nORDER BY ${t.orderBy}${t.ttl ? `\nTTL ${t.ttl}` : ''}`,
    `CREATE TABLE IF NOT EXISTS ${qualified(c, t.name)} ${onCluster(c)} (\n  ${columns.join(',\n  ')}\n) ENGINE = Distributed(${literal(c.cluster)}, ${literal(c.database)}, ${literal(localTable(t.name))}, ${shardingKey(t.orderBy)})`,
  ];
}

/** A kind's table (TableDef) as a clustered table. */
export const clusteredTableOf = (t: TableDef, retentionDays: number): ClusteredTable => ({
  name: t.name,
  columns: columnsOf(t, retentionDays),
  indexes: t.indexes,
  engine: t.engine,
  partitionBy: t.partitionBy,
  orderBy: t.orderBy,
  ttl: ttlExpression(t.ttlColumn),
});

/** Adding a column a newer version declares, on both tables (a no-op where it is). */
export const addColumnStatements = (table: string, column: { name: string; sql: string }, c: ClusterTarget) =>
  [localTable(table), table].map((t) => `ALTER TABLE ${qualified(c, t)} ${onCluster(c)} ADD COLUMN IF NOT EXISTS ${column.name} ${column.sql}`);

/** Adding an index a newer version declares, to the local table (a no-op where it is). */
export const addIndexStatement = (table: string, index: string, c: ClusterTarget) =>
  `ALTER TABLE ${qualified(c, localTable(table))} ${onCluster(c)} ADD INDEX IF NOT EXISTS ${index}`;

/**
 * The whole schema for a cluster, in order: every table, its Distributed table, and what its
 * kind creates after it (the error groups' table and view); then, for an operator upgrading a
 * schema an older version made, every column and index as an idempotent ALTER.
 */
export function clusterSchema(tables: readonly TableDef[], retentionDays: number, c: ClusterTarget): { create: string[]; upgrade: string[] } {
  const create: string[] = [];
  const upgrade: string[] = [];
  for (const t of tables) {
    create.push(...clusteredTableStatements(clusteredTableOf(t, retentionDays), c), ...(t.after?.(retentionDays, t.name, c) ?? []));
    for (const column of columnsOf(t, retentionDays)) upgrade.push(...addColumnStatements(t.name, column, c));
    for (const index of t.indexes ?? []) upgrade.push(addIndexStatement(t.name, index, c));
  }
  return { create, upgrade };
}
