import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@devtrail/config';
import { createClickHouseStore, ensureClickHouseDatabase, migrateColumnStore, type ColumnStore } from '@devtrail/column-store';
import { KIND_TABLES } from '@devtrail/kinds';
import { clickhouseSchema, SINGLE_SERVER_ONLY } from '../services/admin-cli/src/clickhouse-schema.ts';
import { planDeletion } from '../services/dashboard/src/deletion/plan.ts';
import { deleteSql, mutationsSql } from '../services/dashboard/src/deletion/worker.ts';
import { runCli } from './support/processes.ts';
import { NO_STACK_REASON, STACK, stackUp } from './support/stack.ts';

// `devtrail clickhouse-schema` (docs/deployment.md#a-clickhouse-cluster). No ClickHouse cluster or
// Keeper runs here, so the cluster schema is held by ClickHouse's own parser (formatQuery, on
// today's engine and, in the floor project, on 24.8.4.1): every statement parses, every table of
// the single-server schema is there as a Replicated…MergeTree `_local` table ON CLUSTER with a
// Distributed table of its name in front, and the groups' view reads and writes the local tables.
// The single-server schema it prints makes exactly the tables the migrations make.
const up = await stackUp();
const CLUSTER = 'dt_cluster';

/** The statements of the command's output (`;` ends each; `--` lines are comments). */
const statementsOf = (ddl: string) =>
  ddl
    .split(/;\n/)
    .map((s) =>
      s
        .split('\n')
        .filter((l) => !l.startsWith('--'))
        .join('\n')
        .trim(),
    )
    .filter(Boolean);

describe.skipIf(!up)(`ClickHouse schema for a cluster${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let store: ColumnStore;
  const databases: string[] = [];
  const fresh = async () => {
    const database = `dt_schema_${randomBytes(4).toString('hex')}`;
    databases.push(database);
    await ensureClickHouseDatabase({ url: STACK.clickhouseUrl, database });
    return createClickHouseStore({ url: STACK.clickhouseUrl, database });
  };
  const tablesOf = async (s: ColumnStore) =>
    s.query<{ name: string; engine: string; ddl: string }>(
      'SELECT name, engine, create_table_query AS ddl FROM system.tables WHERE database = currentDatabase() ORDER BY name',
    );
  const parse = async (sql: string) => (await store.query<{ f: string }>('SELECT formatQuery({q:String}) AS f', { q: sql }))[0].f;

  beforeAll(async () => {
    store = createClickHouseStore({ url: STACK.clickhouseUrl, database: 'default' });
  });
  afterAll(async () => {
    for (const d of databases) await store.command(`DROP DATABASE IF EXISTS ${d}`);
    await store.close();
  });

  it('prints a cluster schema that ClickHouse parses, with every single-server table ON CLUSTER as documented', async () => {
    const migrated = await fresh();
    await migrateColumnStore(migrated, KIND_TABLES, { retentionDays: 30 });
    const single = (await tablesOf(migrated)).filter((t) => !SINGLE_SERVER_ONLY.includes(t.name));
    const columns = await migrated.query<{ table: string; name: string }>('SELECT table, name FROM system.columns WHERE database = currentDatabase()');
    await migrated.close();

    const config = loadConfig({ CLICKHOUSE_DATABASE: 'dt_prod', RETENTION_DAYS: '45' });
    const ddl = clickhouseSchema(config, CLUSTER);
    const [create, upgrade] = ddl.split(/^-- Upgrading.*$/m).map(statementsOf);
    const parsed = await Promise.all(create.map(parse));
    const on = `ON CLUSTER ${CLUSTER}`;
    for (const f of parsed) expect(f).toContain(on);

    const find = (re: RegExp) => parsed.filter((f) => re.test(f));
    for (const t of single) {
      if (t.engine === 'MaterializedView') {
        const [view] = find(new RegExp(`^CREATE MATERIALIZED VIEW IF NOT EXISTS dt_prod\\.${t.name} ${on} TO dt_prod\\.(\\w+)_local`));
        expect(view, t.name).toBeDefined();
        // Each node's view reads its own shard's rows: the groups from errors, the trace roots from spans.
        expect(view).toMatch(t.name === 'span_roots_mv' ? /FROM dt_prod\.spans_local/ : /FROM dt_prod\.errors_local/);
        if (t.name !== 'span_roots_mv') expect(view).toMatch(/argMaxState\(CAST\(/);
        continue;
      }
      expect(t.engine, t.name).toMatch(/MergeTree$/);
      const [local] = find(new RegExp(`^CREATE TABLE IF NOT EXISTS dt_prod\\.${t.name}_local ${on}\\n`));
      expect(local, `${t.name}_local`).toBeDefined();
      // The engine's own arguments (a ReplacingMergeTree's version column: scores) follow the Keeper path and replica.
      expect(local).toMatch(new RegExp(`ENGINE = Replicated${t.engine}\\('/clickhouse/tables/\\{shard\\}/\\{database\\}/\\{table\\}', '\\{replica\\}'(, \\w+)?\\)`));
      expect(local).toContain('retention_days');
      const [front] = find(new RegExp(`^CREATE TABLE IF NOT EXISTS dt_prod\\.${t.name} ${on}\\n`));
      expect(front, t.name).toBeDefined();
      expect(front).toMatch(new RegExp(`ENGINE = Distributed\\('${CLUSTER}', 'dt_prod', '${t.name}_local', cityHash64\\(project_id, `));
      // The Distributed table has every column of the single-server table, and no index.
      const own = columns.filter((c) => c.table === t.name);
      expect(own.length).toBeGreaterThan(3);
      for (const c of own) expect(front, `${t.name}.${c.name}`).toContain(`\`${c.name}\``);
      expect(front).not.toContain('INDEX');
    }
    // Nothing but those: two tables per table, and the views.
    const views = single.filter((t) => t.engine === 'MaterializedView').length;
    expect(views).toBe(2);
    expect(parsed).toHaveLength((single.length - views) * 2 + views);

    for (const sql of upgrade) expect(await parse(sql)).toMatch(new RegExp(`^ALTER TABLE dt_prod\\.\\w+ ${on}\\s+\\(?ADD (COLUMN|INDEX) IF NOT EXISTS`));
    expect(upgrade.some((s) => s.startsWith('ALTER TABLE dt_prod.logs ') && s.includes('ADD COLUMN IF NOT EXISTS retention_days UInt16 DEFAULT 45'))).toBe(true);
  });

  it("deletes on a cluster from every shard's local tables, and watches the mutations of every replica: statements ClickHouse parses", async () => {
    const c = { cluster: CLUSTER, database: 'dt_prod' };
    const filter = { service: 's', from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' };
    const plan = planDeletion({ projectId: 'p', reason: 'events', filter } as never);
    expect(plan.groups).not.toBeNull();
    for (const t of [...plan.tables, plan.groups!]) {
      expect(await parse(deleteSql(t, c))).toMatch(new RegExp(`^DELETE FROM dt_prod\\.${t.table}_local ON CLUSTER ${CLUSTER} WHERE`));
      expect(await parse(deleteSql(t))).toMatch(new RegExp(`^DELETE FROM ${t.table} WHERE`));
    }
    expect(await parse(mutationsSql(c))).toContain(`clusterAllReplicas('${CLUSTER}', system.mutations)`);
  });

  it('prints, without a cluster, the single-server schema: the tables the migrations make, statement for statement', async () => {
    const migrated = await fresh();
    await migrateColumnStore(migrated, KIND_TABLES, { retentionDays: 30 });
    const applied = await fresh();
    const r = await runCli(['clickhouse-schema'], { CLICKHOUSE_CLUSTER: '', CLICKHOUSE_DATABASE: 'devtrail', RETENTION_DAYS: '30' });
    expect(r.code, r.stderr).toBe(0);
    for (const sql of statementsOf(r.stdout)) await applied.command(sql);
    const normal = async (s: ColumnStore, db: string) =>
      (await tablesOf(s)).filter((t) => !SINGLE_SERVER_ONLY.includes(t.name)).map((t) => ({ ...t, ddl: t.ddl.replaceAll(`${db}.`, 'DB.') }));
    expect(await normal(applied, databases.at(-1)!)).toEqual(await normal(migrated, databases.at(-2)!));
    await migrated.close();
    await applied.close();
  });
});
