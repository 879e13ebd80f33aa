import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs as parseNodeArgs } from 'node:util';
import { createChdbStore } from '@devtrail/column-store/chdb';
import { migrateColumnStore, type ColumnStore, type TableDef } from '@devtrail/column-store';
import { KINDS, parseSearch, SPAN_SEARCH, readServiceMap, readSpanServices, searchTraces, type TraceSearch } from '@devtrail/kinds';
import { percentile } from './stats.ts';

// `npm run bench:traces -- [--rows 10000000] [--runs 10] [--data dir] [--reuse] [--only before|after] [--cases regex]`
// Trace search, the service picker and the service map over generated spans in the column
// store (chdb, the ClickHouse engine in-process): p50/p95 over --runs runs each. Two tables,
// the same rows: "before", the spans table as it was before trace search (its first indexes,
// no roots table) read by the query of then (the newest roots straight from spans, FINAL,
// then their traces' span counts) for what it could do (a service, a minimum duration), and by
// the picker and the map (new reads: what the new indexes do for them); "after", the table as
// span/index.ts declares it (the search's skip indexes, the roots table of roots.ts) read by
// searchTraces. --reuse keeps the data dir; the ranges end where the data ends.
// A script, not a test: docs/benchmarks.md records its figures.

const { values: flags } = parseNodeArgs({
  options: {
    rows: { type: 'string', default: '10000000' },
    runs: { type: 'string', default: '10' },
    data: { type: 'string', default: join(os.tmpdir(), 'devtrail-bench-trace-search') },
    reuse: { type: 'boolean', default: false },
    only: { type: 'string', default: '' },
    cases: { type: 'string', default: '' },
  },
});
const ROWS = Number(flags.rows);
const RUNS = Number(flags.runs);
const BLOCK = 1_000_000;
const SPANS_PER_TRACE = 20;
const PROJECT = '00000000-0000-4000-8000-000000000001';
const say = (m: string) => process.stderr.write(`[trace-search] ${m}\n`);

const FIRST_INDEXES = ['idx_start start_time TYPE minmax GRANULARITY 1', 'idx_operation operation TYPE set(1024) GRANULARITY 4'];
const TABLES: Record<string, TableDef> = { before: { ...KINDS.span.tableDef, indexes: FIRST_INDEXES, after: undefined, steps: [] }, after: KINDS.span.tableDef };

/** The roots query before trace search (one read of spans FINAL over the range); its span counts are read as now. */
async function rootsBefore(store: ColumnStore, f: { range: { fromMs: number; toMs: number }; service?: string; minDurationMs?: number }) {
  const tracesWith = (cond: string) =>
    `trace_id IN (SELECT trace_id FROM spans WHERE project_id = {project:String}
       AND start_time >= fromUnixTimestamp64Milli({wideFrom:Int64}) AND start_time <= fromUnixTimestamp64Milli({wideTo:Int64}) AND ${cond})`;
  const roots = await store.query<{ trace_id: string }>(
    `SELECT ${KINDS.span.recordColumns.join(', ')} FROM spans FINAL
      WHERE project_id = {project:String} AND start_time >= fromUnixTimestamp64Milli({from:Int64}) AND start_time <= fromUnixTimestamp64Milli({to:Int64})
        AND parent_span_id = '' ${f.service ? `AND ${tracesWith('service = {service:String}')}` : ''} ${f.minDurationMs ? 'AND duration_ms >= {min:UInt64}' : ''}
      ORDER BY start_time DESC LIMIT 200`,
    {
      project: PROJECT,
      from: f.range.fromMs,
      to: f.range.toMs,
      wideFrom: f.range.fromMs - 3600_000,
      wideTo: f.range.toMs + 3600_000,
      service: f.service ?? '',
      min: f.minDurationMs ?? 0,
    },
  );
  if (roots.length === 0) return roots;
  // Then each trace's spans counted, as searchTraces did then and does now.
  await store.query(
    `SELECT trace_id, count() AS spans, countIf(status = {error:String}) AS errors, arraySort(groupUniqArray(service)) AS services
       FROM spans FINAL WHERE project_id = {project:String} AND trace_id IN {ids:Array(String)} GROUP BY trace_id`,
    { project: PROJECT, error: 'error', ids: [...new Set(roots.map((r) => r.trace_id))] },
  );
  return roots;
}

/**
 * 24 hours of traces ending now, 20 spans each: a frontend root, then spans of six services
 * under it, each under an earlier span; routes, tenants (5,000), database systems, 2 % failed;
 * one trace in 100,000 carries tenant "needle".
 */
function generateSql(rows: number, offset: number, endMs: number): string {
  const dayMs = 24 * 3600_000;
  const traces = Math.ceil(ROWS / SPANS_PER_TRACE);
  return `INSERT INTO spans (project_id, event_id, received_at, service, environment, release, trace_id, span_id, parent_span_id, operation, start_time, duration_ms, status, metadata)
  SELECT '${PROJECT}', generateUUIDv4(n), ts, service, 'production', 'v1.4', lower(hex(sipHash128(t))), lower(hex(sipHash64(t, j))),
         if(j = 0, '', lower(hex(sipHash64(t, toUInt64(intDiv(j - 1, 3)))))), op, ts, dur, if(sipHash64(n, 7) % 50 = 0, 'error', 'ok'), meta FROM (
    SELECT number AS n, intDiv(n, ${SPANS_PER_TRACE}) AS t, toUInt64(n % ${SPANS_PER_TRACE}) AS j,
      fromUnixTimestamp64Milli(toInt64(${endMs - dayMs} + intDiv(t * ${dayMs}, ${traces}) + j * 7)) AS ts,
      if(j = 0, 'frontend', ['checkout', 'cart', 'search', 'auth', 'payments', 'inventory'][1 + (t + j) % 6]) AS service,
      ['/checkout', '/cart', '/search', '/api/products', '/login'][1 + t % 5] AS route,
      if(j % 4 = 3, ['postgresql', 'redis'][1 + t % 2], '') AS db,
      multiIf(j = 0, concat('GET ', route), db = 'postgresql', 'SELECT orders', db = 'redis', 'redis GET', concat(service, '.handle')) AS op,
      toUInt64(if(j = 0, 40 + sipHash64(t, 1) % 4000, 1 + sipHash64(n, 2) % 800)) AS dur,
      concat('{"http.route":"', route, '","tenant":"', if(t % 100000 = 4242, 'needle', concat('acme_', toString(t % 5000))), '"',
        if(db = '', '', concat(',"db.system":"', db, '"')),
        ',"otel.span_kind":"', if(j = 0, 'server', 'internal'), '","otel.resource":{"host.name":"web-', toString(t % 40), '"}}') AS meta
    FROM numbers(${offset}, ${rows})
  )`;
}

interface Case {
  name: string;
  run(store: ColumnStore): Promise<unknown[]>;
}

function beforeCases(now: number): Case[] {
  const day = { fromMs: now - 25 * 3600_000, toMs: now + 60_000 };
  return [
    { name: 'no search', run: (s) => rootsBefore(s, { range: day }) },
    { name: 'no search service=payments', run: (s) => rootsBefore(s, { range: day, service: 'payments' }) },
    { name: 'min duration 2 s', run: (s) => rootsBefore(s, { range: day, minDurationMs: 2000 }) },
    // The picker and the map are new; over the first indexes they show what the new ones do for them.
    { name: 'service picker (24 h)', run: (s) => readSpanServices(s, { projectId: PROJECT, retentionDays: 30, range: day }) },
    { name: 'service map (1 h)', run: (s) => readServiceMap(s, { projectId: PROJECT, retentionDays: 30, range: { fromMs: now - 3600_000, toMs: now + 60_000 } }) },
    { name: 'service map (24 h)', run: (s) => readServiceMap(s, { projectId: PROJECT, retentionDays: 30, range: day }) },
  ];
}

function cases(now: number): Case[] {
  const day = { fromMs: now - 25 * 3600_000, toMs: now + 60_000 };
  const hour = { fromMs: now - 3600_000, toMs: now + 60_000 };
  const base = { projectId: PROJECT, retentionDays: 30, range: day, limit: 200 } satisfies TraceSearch;
  const search = (q: string, more: Partial<TraceSearch> = {}): Case => ({
    name: `${q || 'no search'}${more.sort ? ` sort=${more.sort}` : ''}${more.service ? ` service=${more.service}` : ''}${more.range === hour ? ' (1 h)' : ''}`,
    run: (s) => searchTraces(s, { ...base, search: parseSearch(q, SPAN_SEARCH), ...more }),
  });
  return [
    search(''),
    search('', { sort: 'duration' }),
    search('', { service: 'PAYMENTS' }),
    { name: 'min duration 2 s', run: (s) => searchTraces(s, { ...base, minDurationMs: 2000 }) },
    search('http.route:/checkout duration:>2s'),
    search('http.route:/checkout duration:>2s', { sort: 'duration' }),
    search('tenant:needle'),
    search('status:error service:payments'),
    search('db.system:redis duration:>500ms'),
    search('"SELECT orders" resource.host.name:web-8'),
    search('http.route:/checkout duration:>2s', { range: hour }),
    { name: 'service picker (24 h)', run: (s) => readSpanServices(s, { projectId: PROJECT, retentionDays: 30, range: day }) },
    { name: 'service map (1 h)', run: (s) => readServiceMap(s, { projectId: PROJECT, retentionDays: 30, range: hour }) },
    { name: 'service map (24 h)', run: (s) => readServiceMap(s, { projectId: PROJECT, retentionDays: 30, range: day }) },
  ];
}

async function prepare(store: ColumnStore, db: string, table: TableDef, endMs: number): Promise<number | undefined> {
  await store.command(`CREATE DATABASE IF NOT EXISTS bench_${db}`);
  await store.command(`USE bench_${db}`);
  const [{ n }] = await store.query<{ n: string }>("SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = 'spans'");
  const existing = Number(n) > 0 ? Number((await store.query<{ c: string }>('SELECT count() AS c FROM spans'))[0].c) : 0;
  if (flags.reuse && existing === ROWS) return undefined;
  await store.command('DROP TABLE IF EXISTS spans');
  await migrateColumnStore(store, [table], { retentionDays: 30 });
  const t0 = Date.now();
  for (let off = 0; off < ROWS; off += BLOCK) {
    await store.command(generateSql(Math.min(BLOCK, ROWS - off), off, endMs));
    say(`${db}: ${Math.min(ROWS, off + BLOCK).toLocaleString('en')} spans (${Math.round((Date.now() - t0) / 1000)} s)`);
  }
  return Math.round((Date.now() - t0) / 100) / 10;
}

async function main() {
  mkdirSync(flags.data, { recursive: true });
  const store = createChdbStore(flags.data, 'default');
  const endMs = Date.now();
  const inserted: Record<string, number> = {};
  const results: Array<Record<string, unknown>> = [];
  for (const [db, table] of Object.entries(TABLES)) {
    if (flags.only && flags.only !== db) continue;
    const seconds = await prepare(store, db, table, endMs);
    if (seconds !== undefined) inserted[db] = seconds;
    // The ranges end where the data ends, so a reused table (--reuse, generated earlier) is read as it was when written.
    const [{ end }] = await store.query<{ end: string }>('SELECT toUnixTimestamp64Milli(max(start_time)) AS end FROM spans');
    const now = Number(end) + 1;
    const [parts] = await store.query<{ parts: string; bytes: string; idx: string }>(
      "SELECT count() AS parts, sum(data_compressed_bytes) AS bytes, sum(secondary_indices_compressed_bytes) AS idx FROM system.parts WHERE database = currentDatabase() AND table = 'spans' AND active",
    );
    say(`${db}: ${parts.parts} parts, data ${Math.round(Number(parts.bytes) / 2 ** 20)} MiB, skip indexes ${Math.round(Number(parts.idx) / 2 ** 20)} MiB`);
    const chosen = new RegExp(flags.cases); // --cases REGEX: only the cases whose name matches
    for (const c of (db === 'before' ? beforeCases(now) : cases(now)).filter((k) => chosen.test(k.name))) {
      const found = await c.run(store); // warm-up
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await c.run(store);
        ms.push(performance.now() - t);
      }
      ms.sort((a, b) => a - b);
      const row = { way: db, case: c.name, p50_ms: Math.round(percentile(ms, 50)!), p95_ms: Math.round(percentile(ms, 95)!), rows: found.length };
      results.push(row);
      say(`${db} ${c.name}: p50 ${row.p50_ms} ms, p95 ${row.p95_ms} ms, ${row.rows} rows`);
    }
  }
  console.log(`\ntrace search over ${ROWS.toLocaleString('en')} spans in chdb, ${RUNS} runs each (${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(2)})\n`);
  console.table(results);
  for (const [db, seconds] of Object.entries(inserted)) console.log(`  ${db}: ${ROWS.toLocaleString('en')} spans inserted in ${seconds} s`);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/trace-search.json', `${JSON.stringify({ rows: ROWS, runs: RUNS, at: new Date().toISOString(), inserted, results }, null, 2)}\n`);
  await store.close();
  if (!flags.reuse) rmSync(flags.data, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (err) => {
    say(`error: ${(err as Error).stack ?? err}`);
    process.exit(1);
  },
);
