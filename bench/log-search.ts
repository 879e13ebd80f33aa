import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs as parseNodeArgs } from 'node:util';
import { createChdbStore } from '@devtrail/column-store/chdb';
import { bucketsOf, migrateColumnStore, type ColumnStore, type TableDef } from '@devtrail/column-store';
import { clampLimit } from '@devtrail/column-store';
import { KINDS, LOG_SEARCH, logWhere, parseSearch, readLogFacets, readLogs, readLogVolume, type LogFilter } from '@devtrail/kinds';
import { percentile } from './stats.ts';

// `npm run bench:search -- [--rows 10000000] [--runs 20] [--data dir] [--reuse] [--only before|after]`
// The logs explorer's reads over generated logs in the column store (chdb, the ClickHouse
// engine in-process): search, volume histogram and facets, p50/p95 over --runs runs each.
// Three ways, the same rows: "before", the logs table's first indexes and the list read as
// one query over the range (as readLogs did before the explorer); "indexes", the table as
// log/index.ts declares it (the search indexes), the list still one query; "after", the
// search indexes and the list read newest slice first (readLogs now).
// A script, not a test: docs/benchmarks.md records its figures.

const { values: flags } = parseNodeArgs({
  options: {
    rows: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '20' },
    data: { type: 'string', default: join(os.tmpdir(), 'devtrail-bench-log-search') },
    reuse: { type: 'boolean', default: false },
    only: { type: 'string', default: '' },
  },
});
const ROWS = Number(flags.rows);
const RUNS = Number(flags.runs);
const PROJECT = '00000000-0000-4000-8000-000000000001';
const log = (m: string) => process.stderr.write(`[log-search] ${m}\n`);

// The indexes the logs table had before the explorer's search (the first version of the table).
const FIRST_INDEXES = [
  'idx_level level TYPE set(8) GRANULARITY 4',
  'idx_service service TYPE set(256) GRANULARITY 4',
  'idx_trace trace_id TYPE bloom_filter(0.01) GRANULARITY 4',
  'idx_request request_id TYPE bloom_filter(0.01) GRANULARITY 4',
  'idx_message lower(message) TYPE ngrambf_v1(3, 65536, 2, 0) GRANULARITY 4',
];
/** Which ways read each table. */
const WAYS_OF: Record<string, string[]> = { before: ['before'], after: ['indexes', 'after'] };
const TABLES: Record<string, TableDef> = {
  before: { ...KINDS.log.tableDef, indexes: FIRST_INDEXES },
  after: KINDS.log.tableDef,
};

/** 24 hours of logs ending now from six services: realistic messages, metadata with user and request ids. */
function generateSql(rows: number, offset: number, endMs: number): string {
  const spanMs = 24 * 3600_000;
  return `INSERT INTO logs (project_id, event_id, received_at, service, environment, release, timestamp, level, message, metadata, trace_id, span_id, request_id, context)
  SELECT '${PROJECT}', generateUUIDv4(n), ts, service, env, rel, ts, level, message, metadata, trace, span, req, ctx FROM (
    SELECT number AS n,
      fromUnixTimestamp64Milli(toInt64(${endMs - spanMs} + intDiv(n * ${spanMs}, ${ROWS}))) AS ts,
      sipHash64(n, 1) % 1000 AS r,
      ['checkout', 'cart', 'search', 'auth', 'payments', 'email'][1 + n % 6] AS service,
      ['production', 'production', 'production', 'staging', 'development'][1 + intDiv(n, 7) % 5] AS env,
      concat('v1.', toString(intDiv(n, 1000000) % 8)) AS rel,
      multiIf(r < 300, 'debug', r < 850, 'info', r < 950, 'warn', 'error') AS level,
      lower(hex(sipHash64(n, 2))) AS req,
      concat('u_', toString(sipHash64(n, 3) % 100000)) AS user,
      toString(sipHash64(n, 4) % 2000) AS ms,
      multiIf(
        n % 100000 = 4242, 'deadlock detected on table orders',
        r < 300, concat('cache miss for key product:', toString(n % 50000)),
        r < 600, concat('GET /api/', service, '/', toString(n % 5000), ' 200 in ', ms, ' ms'),
        r < 850, concat('user ', user, ' opened /', service),
        r < 900, concat('slow query took ', ms, ' ms on replica db-', toString(n % 4)),
        r < 950, concat('retrying request to ', service, '-api (attempt ', toString(1 + n % 3), ')'),
        r < 975, concat('payment declined for order o_', toString(n % 100000), ': card expired'),
        concat('upstream timeout after ', ms, ' ms: connection reset by peer')) AS message,
      concat('{"user_id":"', user, '","request_id":"', req, '","duration_ms":', ms, ',"route":"/api/', service, '","region":"',
        ['eu-west-1', 'us-east-1', 'ap-south-1'][1 + n % 3], '"', if(n % 10 = 0, ',"feature":"new-checkout"', ''), '}') AS metadata,
      if(n % 2 = 0, lower(hex(sipHash128(n))), '') AS trace,
      if(n % 2 = 0, lower(hex(sipHash64(n, 5))), '') AS span,
      ['http', 'worker', 'cron'][1 + n % 3] AS ctx
    FROM numbers(${offset}, ${Math.min(1_000_000, rows)})
  )`;
}

/** The request id and user of the row a needle search should find exactly. */
const NEEDLE_ROW = 7_654_321 % ROWS;

interface Case {
  name: string;
  run(store: ColumnStore): Promise<unknown>;
  search?: string;
  /** A read of the list (whose way of reading differs between "indexes" and "after"). */
  list?: boolean;
}

/** The list as readLogs read it before the explorer: one query over the whole range. */
async function readLogsOneQuery(store: ColumnStore, f: LogFilter & { limit?: number }) {
  const { where, params } = logWhere(f);
  const rows = await store.query(
    `SELECT ${KINDS.log.recordColumns.join(', ')} FROM logs FINAL WHERE ${where.join(' AND ')} ORDER BY timestamp DESC, event_id DESC LIMIT {limit:UInt32}`,
    { ...params, limit: clampLimit(f.limit) + 1 },
  );
  return { logs: rows.slice(0, clampLimit(f.limit)) };
}

function cases(needle: { req: string }, sliced: boolean): Case[] {
  const range = { fromMs: Date.now() - 25 * 3600_000, toMs: Date.now() + 60_000 };
  const read = sliced ? readLogs : readLogsOneQuery;
  const list = (q: string): Case => ({
    name: `search ${q}`,
    search: q,
    list: true,
    run: (s) => read(s, { retentionDays: 30, projectId: PROJECT, range, search: parseSearch(q, LOG_SEARCH), limit: 100 }),
  });
  return [
    list('deadlock'),
    list('metadata.user_id:u_1042'),
    list(`metadata.request_id:${needle.req}`),
    list(needle.req),
    list('"payment declined"'),
    list('level:>=warn service:payments -"card expired"'),
    list('timeout'),
    { name: 'list, no search (newest 100)', list: true, run: (s) => read(s, { retentionDays: 30, projectId: PROJECT, range, limit: 100 }) },
    { name: 'histogram, 60 buckets', run: (s) => readLogVolume(s, { retentionDays: 30, projectId: PROJECT }, bucketsOf(range, 60)) },
    {
      name: 'histogram of user_id:u_1042',
      run: (s) => readLogVolume(s, { retentionDays: 30, projectId: PROJECT, search: parseSearch('user_id:u_1042', LOG_SEARCH) }, bucketsOf(range, 60)),
    },
    { name: 'facets, no search', run: (s) => readLogFacets(s, { retentionDays: 30, projectId: PROJECT, range }) },
    {
      name: 'facets of level:error service:checkout',
      run: (s) => readLogFacets(s, { retentionDays: 30, projectId: PROJECT, range, search: parseSearch('level:error service:checkout', LOG_SEARCH) }),
    },
  ];
}

/** Granules the skip indexes leave to read, of all in the range, for a search (EXPLAIN indexes = 1). */
async function granules(store: ColumnStore, q: string): Promise<string> {
  const { where, params } = logWhere({ retentionDays: 30, projectId: PROJECT, range: { fromMs: 0, toMs: Date.now() + 60_000 }, search: parseSearch(q, LOG_SEARCH) });
  const rows = await store.query<{ explain: string }>(`EXPLAIN indexes = 1 SELECT event_id FROM logs WHERE ${where.join(' AND ')}`, params);
  const text = rows.map((r) => r.explain).join('\n');
  const all = [...text.matchAll(/Granules: (\d+)\/(\d+)/g)];
  if (all.length === 0) return '?';
  const total = all[0][2];
  const last = all[all.length - 1][1];
  return `${last}/${total}`;
}

async function main() {
  mkdirSync(flags.data, { recursive: true });
  const store = createChdbStore(flags.data, 'default');
  const endMs = Date.now();
  /** Seconds each table took to insert the generated rows (with its indexes), when made in this run. */
  const inserted: Record<string, number> = {};
  for (const [db, table] of Object.entries(TABLES)) {
    if (flags.only && !WAYS_OF[db].includes(flags.only)) continue;
    await store.command(`CREATE DATABASE IF NOT EXISTS bench_${db}`);
    await store.command(`USE bench_${db}`);
    const [{ n }] = await store.query<{ n: string }>("SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = 'logs'");
    const existing = Number(n) > 0 ? Number((await store.query<{ c: string }>('SELECT count() AS c FROM logs'))[0].c) : 0;
    const indexes =
      Number(n) > 0
        ? (await store.query<{ name: string }>("SELECT name FROM system.data_skipping_indices WHERE database = currentDatabase() AND table = 'logs' ORDER BY name")).map(
            (i) => i.name,
          )
        : [];
    const declared = (table.indexes ?? []).map((i) => i.split(' ', 1)[0]).sort();
    if (!(flags.reuse && existing === ROWS && indexes.join() === declared.join())) {
      await store.command('DROP TABLE IF EXISTS logs');
      await migrateColumnStore(store, [table], { retentionDays: 30 });
      const t0 = Date.now();
      for (let off = 0; off < ROWS; off += 1_000_000) {
        await store.command(generateSql(Math.min(1_000_000, ROWS - off), off, endMs));
        log(`${db}: ${Math.min(ROWS, off + 1_000_000).toLocaleString('en')} rows (${Math.round((Date.now() - t0) / 1000)} s)`);
      }
      inserted[db] = Math.round((Date.now() - t0) / 100) / 10;
    }
  }
  const results: Array<Record<string, unknown>> = [];
  const needleReq = (await store.query<{ req: string }>(`SELECT lower(hex(sipHash64(toUInt64(${NEEDLE_ROW}), 2))) AS req`))[0].req;
  const WAYS = [
    { name: 'before', db: 'before', sliced: false, listsOnly: false },
    { name: 'indexes', db: 'after', sliced: false, listsOnly: false },
    { name: 'after', db: 'after', sliced: true, listsOnly: true },
  ];
  for (const way of WAYS) {
    const db = way.db;
    if (flags.only && flags.only !== way.name) continue;
    await store.command(`USE bench_${db}`);
    const [parts] = await store.query<{ parts: string; bytes: string; idx: string }>(
      "SELECT count() AS parts, sum(data_compressed_bytes) AS bytes, sum(secondary_indices_compressed_bytes) AS idx FROM system.parts WHERE database = currentDatabase() AND table = 'logs' AND active",
    );
    log(`${db}: ${parts.parts} parts, data ${Math.round(Number(parts.bytes) / 2 ** 20)} MiB, skip indexes ${Math.round(Number(parts.idx) / 2 ** 20)} MiB`);
    for (const c of cases({ req: needleReq }, way.sliced)) {
      if (way.listsOnly && !c.list) continue;
      await c.run(store); // warm-up
      const ms: number[] = [];
      let rows = 0;
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        const r = (await c.run(store)) as { logs?: unknown[] };
        ms.push(performance.now() - t);
        rows = r.logs?.length ?? rows;
      }
      ms.sort((a, b) => a - b);
      const row = {
        way: way.name,
        case: c.name,
        p50_ms: Math.round(percentile(ms, 50)!),
        p95_ms: Math.round(percentile(ms, 95)!),
        rows: c.search ? rows : '',
        granules: c.search ? await granules(store, c.search) : '',
        data_mib: Math.round(Number(parts.bytes) / 2 ** 20),
        index_mib: Math.round(Number(parts.idx) / 2 ** 20),
      };
      results.push(row);
      log(`${way.name} ${c.name}: p50 ${row.p50_ms} ms, p95 ${row.p95_ms} ms, ${row.rows} rows, granules ${row.granules}`);
    }
  }
  console.log(`\nlogs explorer reads over ${ROWS.toLocaleString('en')} logs in chdb, ${RUNS} runs each (${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(2)})\n`);
  console.table(results.map(({ data_mib, index_mib, ...r }) => r));
  for (const [db, seconds] of Object.entries(inserted)) console.log(`  ${db}: ${ROWS.toLocaleString('en')} rows inserted in ${seconds} s`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/log-search.json', `${JSON.stringify({ rows: ROWS, runs: RUNS, at: new Date().toISOString(), inserted, results }, null, 2)}\n`);
  await store.close();
  if (!flags.reuse) rmSync(flags.data, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (err) => {
    log(`error: ${(err as Error).stack ?? err}`);
    process.exit(1);
  },
);
