import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../src/index.ts';

// The wire protocol itself, request by request, as ClickHouse's HTTP interface has it.
describe('ClickHouse HTTP interface', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'clickhouse-standin-http-'));
  let standin: Standin;

  const post = (body: string | Uint8Array, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    fetch(`${standin.url}/?${new URLSearchParams(query)}`, { method: 'POST', body: body as BodyInit, headers });
  const text = async (body: string, query: Record<string, string> = {}) => {
    const res = await post(body, query);
    expect(res.status, await res.clone().text()).toBe(200);
    return res.text();
  };
  const expectException = async (res: Response, status: number, code: number, name: string) => {
    const body = await res.text();
    expect(res.status, body).toBe(status);
    expect(res.headers.get('x-clickhouse-exception-code')).toBe(String(code));
    expect(body).toMatch(new RegExp(`^Code: ${code}\\. DB::Exception: .*\\. \\(${name}\\) \\(version [0-9.]+\\)\\n$`, 's'));
  };

  beforeAll(async () => {
    standin = await startStandin({ port: 0, dataDir, maxQueuedRequests: 8 });
    await text('CREATE TABLE t (a UInt32, s String) ENGINE = MergeTree ORDER BY a');
  });

  afterAll(async () => {
    await standin?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers /ping and a bare GET / with "Ok."', async () => {
    for (const path of ['/ping', '/']) {
      const res = await fetch(`${standin.url}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('Ok.\n');
    }
  });

  it('runs GET ?query= and POST bodies, TabSeparated by default, with ClickHouse headers', async () => {
    const get = await fetch(`${standin.url}/?query=${encodeURIComponent("SELECT 1, 'a\\tb'")}&query_id=my-query`);
    expect(await get.text()).toBe('1\ta\\tb\n');
    expect(get.headers.get('x-clickhouse-format')).toBe('TabSeparated');
    expect(get.headers.get('content-type')).toBe('text/tab-separated-values; charset=UTF-8');
    expect(get.headers.get('x-clickhouse-query-id')).toBe('my-query');
    expect(JSON.parse(get.headers.get('x-clickhouse-summary')!)).toMatchObject({ result_rows: '1', written_rows: '0' });

    const posted = await post('SELECT number FROM system.numbers LIMIT 2 FORMAT CSVWithNames');
    expect(await posted.text()).toBe('"number"\n0\n1\n');
    expect(posted.headers.get('content-type')).toBe('text/csv; charset=UTF-8; header=present');
    expect(posted.headers.get('x-clickhouse-query-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('concatenates the query parameter and the body', async () => {
    expect(await text('+ 1', { query: 'SELECT 1' })).toBe('2\n');
  });

  it('takes the output format from default_format or X-ClickHouse-Format when the SQL has none', async () => {
    const res = await post('SELECT 1 AS x', { default_format: 'JSONEachRow' });
    expect(await res.text()).toBe('{"x":1}\n');
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=UTF-8');
    const viaHeader = await post('SELECT 1 AS x', {}, { 'X-ClickHouse-Format': 'JSONCompactEachRow' });
    expect(await viaHeader.text()).toBe('[1]\n');
  });

  it('binds param_* values verbatim, as the engine parses them', async () => {
    const query = 'SELECT {s:String} AS s, {a:Array(String)} AS a, {n:Nullable(UInt8)} AS n FORMAT JSONEachRow';
    const res = await post(query, { param_s: "it\\'s \\\\ \\t", param_a: "['x\\'y','z']", param_n: '\\N' });
    expect(JSON.parse(await res.text())).toEqual({ s: "it's \\ \t", a: ["x'y", 'z'], n: null });
  });

  it('returns empty 200 responses for DDL', async () => {
    const res = await post('CREATE TABLE IF NOT EXISTS ddl (a UInt8) ENGINE = Memory');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(res.headers.get('x-clickhouse-format')).toBeNull();
  });

  it('inserts inline data from the body, with or without the query in the URL', async () => {
    const viaUrl = await post('{"a":1,"s":"url"}\n{"a":2,"s":"url"}\n', { query: 'INSERT INTO t FORMAT JSONEachRow' });
    expect(JSON.parse(viaUrl.headers.get('x-clickhouse-summary')!)).toMatchObject({ written_rows: '2' });
    await text('INSERT INTO t (s, a) FORMAT CSV\n"body",3\n"body",4\n');
    const values = await post("INSERT INTO t VALUES (5, 'values'), (6, 'values;')");
    expect(JSON.parse(values.headers.get('x-clickhouse-summary')!)).toMatchObject({ written_rows: '2' });
    const select = await post("INSERT INTO t SELECT number + 7, 'select' FROM numbers(2)");
    expect(JSON.parse(select.headers.get('x-clickhouse-summary')!)).toMatchObject({ written_rows: '2' });
    expect(await text('', { query: 'INSERT INTO t FORMAT JSONEachRow' })).toBe('');
    expect(await text('SELECT s, count() FROM t GROUP BY s ORDER BY s')).toBe('body\t2\nselect\t2\nurl\t2\nvalues\t1\nvalues;\t1\n');
  });

  it('inserts multi-megabyte bodies', async () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => `{"a":${1000 + i},"s":"bulk row ${i}"}`).join('\n');
    const res = await post(rows, { query: 'INSERT INTO t FORMAT JSONEachRow' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.headers.get('x-clickhouse-summary')!)).toMatchObject({ written_rows: '100000' });
  });

  it('accepts gzip request bodies and only compresses responses when enabled and accepted', async () => {
    const body = gzipSync(Buffer.from('{"a":100,"s":"gzip"}\n'));
    await text('SELECT 1'); // warm-up
    const res = await post(body, { query: 'INSERT INTO t FORMAT JSONEachRow' }, { 'Content-Encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(await text("SELECT count() FROM t WHERE s = 'gzip'")).toBe('1\n');

    const plain = await post('SELECT 1', {}, { 'Accept-Encoding': 'gzip' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const compressed = await post('SELECT 1', { enable_http_compression: '1' }, { 'Accept-Encoding': 'gzip' });
    expect(compressed.headers.get('content-encoding')).toBe('gzip');
    expect(await compressed.text()).toBe('1\n'); // fetch decodes it
  });

  it('applies settings and database to one request only', async () => {
    expect(await text("SELECT getSetting('max_threads')", { max_threads: '1' })).toBe('1\n');
    expect(await text("SELECT getSetting('max_threads') != 1")).toBe('1\n');
    expect(await text("SET max_threads = 1")).toBe('');
    expect(await text("SELECT getSetting('max_threads') != 1")).toBe('1\n');

    await text('CREATE DATABASE IF NOT EXISTS other');
    expect(await text('SELECT currentDatabase()', { database: 'other' })).toBe('other\n');
    expect(await text('SELECT currentDatabase()')).toBe('default\n');
    expect(await text('USE other')).toBe('');
    expect(await text('SELECT currentDatabase()')).toBe('default\n');
  });

  it('reports engine errors with ClickHouse status codes and bodies', async () => {
    await expectException(await post('SELECT * FROM missing'), 404, 60, 'UNKNOWN_TABLE');
    await expectException(await post('SELECT 1', { database: 'missing' }), 404, 81, 'UNKNOWN_DATABASE');
    await expectException(await post('SELECT 1', { no_such_setting: '1' }), 404, 115, 'UNKNOWN_SETTING');
    await expectException(await post('SELECT throwIf(1)'), 500, 395, 'FUNCTION_THROW_IF_VALUE_IS_NON_ZERO');
    await expectException(await post('{"a":"x"}', { query: 'INSERT INTO t FORMAT JSONEachRow' }), 400, 27, 'CANNOT_PARSE_INPUT_ASSERTION_FAILED');
    await expectException(await post('SELECT {x:UInt8}'), 500, 456, 'UNKNOWN_QUERY_PARAMETER');
  });

  it('rejects what the server rejects before running anything', async () => {
    await expectException(await post(''), 400, 62, 'SYNTAX_ERROR');
    await expectException(await post('SELECT 1; SELECT 2'), 400, 62, 'SYNTAX_ERROR');
    await expectException(await post("SELECT 1 INTO OUTFILE '/tmp/x'"), 500, 358, 'INTO_OUTFILE_NOT_ALLOWED');
    const readonly = await fetch(`${standin.url}/?query=${encodeURIComponent("INSERT INTO t VALUES (1, 'get')")}`);
    await expectException(readonly, 500, 164, 'READONLY');
    await expectException(await post('SELECT 1', { compress: '1' }), 501, 48, 'NOT_IMPLEMENTED');
  });

  it('survives garbage', async () => {
    await expectException(await post(Buffer.from([0xff, 0x00, 0x27, 0xfe, 0x3b, 0x0a])), 400, 62, 'SYNTAX_ERROR');
    await expectException(await post('SELECT 1', {}, { 'Content-Encoding': 'lzma-ish' }), 501, 48, 'NOT_IMPLEMENTED');
    await expectException(await post(Buffer.from('not gzip at all'), {}, { 'Content-Encoding': 'gzip' }), 500, 354, 'ZLIB_INFLATE_FAILED');
    expect(await text('SELECT 1')).toBe('1\n');
  });

  it('answers 503 when too many requests wait for the engine', async () => {
    const responses = await Promise.all(Array.from({ length: 40 }, () => post('SELECT sleep(0.05)')));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(9);
    const rejected = responses.filter((r) => r.status === 503);
    expect(rejected.length).toBeGreaterThan(0);
    await expectException(rejected[0], 503, 202, 'TOO_MANY_SIMULTANEOUS_QUERIES');
    await Promise.all(responses.filter((r) => !r.bodyUsed).map((r) => r.text()));
    expect(await text('SELECT 1')).toBe('1\n');
  });
});
