import { ColumnStoreError, type ColumnStore } from './column-store.ts';
import { migrateCluster } from './cluster-migrations.ts';
import { columnsOf, createTableSql, type ClusterTarget, type TableDef } from './table.ts';

// Brings the store's tables to what the kinds declare (TableDef): a table of a former name
// is renamed, a missing table is created, a declared column or index the table lacks is
// added, and a declared step not yet recorded is applied and recorded. Nothing is ever
// dropped. Every step is idempotent and checked before it is made, so replicas starting
// together all come up and a restart costs a few reads. Changes that cannot be declared
// this way (a new sorting key) need a new table.

export interface MigrateOptions {
  retentionDays: number;
  /** A cluster: the cluster schema instead (cluster-migrations.ts). */
  cluster?: ClusterTarget;
}

/** Where applied steps are recorded (table, step id); a replayed insert changes nothing. */
export const STEPS_TABLE = 'devtrail_schema_steps';

/** Answers what it changed ("created logs", "added column logs.host", ...): nothing when the store was already up to date. */
export async function migrateColumnStore(store: ColumnStore, tables: readonly TableDef[], opts: MigrateOptions): Promise<string[]> {
  if (opts.cluster) return migrateCluster(store, tables, opts.retentionDays, opts.cluster);
  const changes: string[] = [];
  await idempotent(
    store,
    `CREATE TABLE IF NOT EXISTS ${STEPS_TABLE} (table String, step String, applied_at DateTime DEFAULT now()) ENGINE = ReplacingMergeTree ORDER BY (table, step)`,
  );
  for (const t of tables) {
    await renameFormer(store, t, changes);
    if (!(await exists(store, t.name))) changes.push(`created ${t.name}`);
    await idempotent(store, createTableSql(t, opts.retentionDays));
    await addMissing(store, t, opts.retentionDays, changes);
    for (const sql of t.after?.(opts.retentionDays, t.name) ?? []) await idempotent(store, sql);
    await applySteps(store, t, opts.retentionDays, changes);
  }
  return changes;
}

// A server may answer "already exists" to a CREATE ... IF NOT EXISTS that lost a race to the same
// statement of another replica: the object is there, which is all that was wanted.
const ALREADY_EXISTS = new Set(['57', '82']); // TABLE_ALREADY_EXISTS, DATABASE_ALREADY_EXISTS

async function idempotent(store: ColumnStore, sql: string): Promise<void> {
  await store.command(sql).catch((err: unknown) => {
    if (!(err instanceof ColumnStoreError && err.code !== undefined && ALREADY_EXISTS.has(err.code))) throw err;
  });
}

const exists = async (store: ColumnStore, table: string) =>
  (await store.query<{ n: string | number }>('SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = {t:String}', { t: table }))
    .map((r) => Number(r.n))
    .some((n) => n > 0);

async function renameFormer(store: ColumnStore, t: TableDef, changes: string[]): Promise<void> {
  for (const old of t.formerly ?? []) {
    if ((await exists(store, t.name)) || !(await exists(store, old))) continue;
    changes.push(`renamed ${old} to ${t.name}`);
    // Another replica may rename it first: then the table exists, which is all that was wanted.
    await store.command(`RENAME TABLE ${old} TO ${t.name}`).catch(async (err) => {
      if (!(await exists(store, t.name))) throw err;
    });
  }
}

async function addMissing(store: ColumnStore, t: TableDef, retentionDays: number, changes: string[]): Promise<void> {
  const columns = new Set((await store.query<{ name: string }>(`DESCRIBE TABLE ${t.name}`)).map((c) => c.name));
  for (const c of columnsOf(t, retentionDays)) {
    if (columns.has(c.name)) continue;
    changes.push(`added column ${t.name}.${c.name}`);
    await store.command(`ALTER TABLE ${t.name} ADD COLUMN IF NOT EXISTS ${c.name} ${c.sql}`);
  }
  if (!t.indexes?.length) return;
  const indexes = new Set(
    (
      await store.query<{ name: string }>('SELECT name FROM system.data_skipping_indices WHERE database = currentDatabase() AND table = {t:String}', {
        t: t.name,
      })
    ).map((i) => i.name),
  );
  for (const i of t.indexes) {
    const name = i.split(/\s/, 1)[0];
    if (indexes.has(name)) continue;
    changes.push(`added index ${t.name}.${name}`);
    await store.command(`ALTER TABLE ${t.name} ADD INDEX IF NOT EXISTS ${i}`);
  }
}

/**
 * The table's steps not yet recorded, in order. A step is recorded after its statements,
 * so a crash in between runs it again at the next start (its statements are idempotent);
 * two replicas may both run it and both record it (the table de-duplicates).
 */
async function applySteps(store: ColumnStore, t: TableDef, retentionDays: number, changes: string[]): Promise<void> {
  if (!t.steps?.length) return;
  const done = new Set((await store.query<{ step: string }>(`SELECT step FROM ${STEPS_TABLE} FINAL WHERE table = {t:String}`, { t: t.name })).map((r) => r.step));
  for (const step of t.steps) {
    if (done.has(step.id)) continue;
    for (const sql of step.statements(retentionDays, t.name)) await store.command(sql);
    await store.insert(STEPS_TABLE, [{ table: t.name, step: step.id }]);
    changes.push(`applied ${t.name}: ${step.id}`);
  }
}
