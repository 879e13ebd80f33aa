import type { ColumnStore } from './column-store.ts';
import { addColumnStatements, addIndexStatement, clusteredTableOf, clusteredTableStatements, localTable } from './cluster-schema.ts';
import { columnsOf, type ClusterTarget, type TableDef } from './table.ts';

// Migrations on a cluster (docs/deployment.md#a-clickhouse-cluster): the cluster schema's CREATE
// statements, each IF NOT EXISTS and ON CLUSTER, then the columns and indexes a newer version
// declares that this node's local table lacks, added ON CLUSTER to every node. A table's one-off
// steps (TableDef.steps) bring single-server schemas of older versions up to date; a cluster schema
// is made in its final form, so they are not run here.

/** Answers what it changed, as migrateColumnStore does. */
export async function migrateCluster(store: ColumnStore, tables: readonly TableDef[], retentionDays: number, c: ClusterTarget): Promise<string[]> {
  const changes: string[] = [];
  for (const t of tables) {
    if (!(await existsHere(store, c, localTable(t.name)))) changes.push(`created ${t.name} on cluster ${c.cluster}`);
    for (const sql of [...clusteredTableStatements(clusteredTableOf(t, retentionDays), c), ...(t.after?.(retentionDays, t.name, c) ?? [])]) await store.command(sql);
    const columns = new Set((await store.query<{ name: string }>(`DESCRIBE TABLE ${localTable(t.name)}`)).map((col) => col.name));
    for (const column of columnsOf(t, retentionDays)) {
      if (columns.has(column.name)) continue;
      changes.push(`added column ${t.name}.${column.name} on cluster ${c.cluster}`);
      for (const sql of addColumnStatements(t.name, column, c)) await store.command(sql);
    }
    const indexes = new Set(
      (
        await store.query<{ name: string }>('SELECT name FROM system.data_skipping_indices WHERE database = currentDatabase() AND table = {t:String}', {
          t: localTable(t.name),
        })
      ).map((i) => i.name),
    );
    for (const index of t.indexes ?? []) {
      if (indexes.has(index.split(/\s/, 1)[0])) continue;
      changes.push(`added index ${t.name}.${index.split(/\s/, 1)[0]} on cluster ${c.cluster}`);
      await store.command(addIndexStatement(t.name, index, c));
    }
  }
  return changes;
}

const existsHere = async (store: ColumnStore, c: ClusterTarget, table: string) =>
  (
    await store.query<{ n: string | number }>('SELECT count() AS n FROM system.tables WHERE database = {d:String} AND name = {t:String}', {
      d: c.database,
      t: table,
    })
  ).some((r) => Number(r.n) > 0);
