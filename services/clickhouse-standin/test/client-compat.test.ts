import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ClickHouseError, ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandin, type Standin } from '../src/index.ts';

// The production client, unchanged, against the stand-in.
describe('@clickhouse/client against the stand-in', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'clickhouse-standin-client-'));
  let standin: Standin;
  let client: ClickHouseClient;

  // The client logs failed requests itself; the failures here are intended.
  const connect = (extra: Parameters<typeof createClient>[0] = {}) =>
    createClient({ url: standin.url, log: { level: ClickHouseLogLevel.OFF }, ...extra });

  beforeAll(async () => {
    standin = await startStandin({ port: 0, dataDir });
    client = connect();
  });

  afterAll(async () => {
    await client?.close();
    await standin?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('pings', async () => {
    expect(await client.ping()).toEqual({ success: true });
    expect(await client.ping({ select: true })).toEqual({ success: true });
  });

  it('creates a ReplacingMergeTree with TTL and server-style column types', async () => {
    await client.command({
      query: `
        CREATE TABLE IF NOT EXISTS events (
          id UInt64,
          ts DateTime64(3, 'UTC'),
          name LowCardinality(String),
          attrs Map(String, String),
          version UInt32
        )
        ENGINE = ReplacingMergeTree(version)
        ORDER BY (name, id)
        TTL toDateTime(ts) + INTERVAL 3650 DAY`,
    });
    const rows = await (await client.query({ query: 'DESCRIBE TABLE events', format: 'JSONEachRow' })).json<{ name: string; type: string }>();
    expect(rows.map((r) => `${r.name} ${r.type}`)).toEqual([
      'id UInt64',
      "ts DateTime64(3, 'UTC')",
      'name LowCardinality(String)',
      'attrs Map(String, String)',
      'version UInt32',
    ]);
  });

  it('inserts 10,000 JSONEachRow rows and reports them in the summary', async () => {
    const values = Array.from({ length: 10_000 }, (_, i) => ({
      id: i,
      ts: `2024-05-01 12:00:00.${String(i % 1000).padStart(3, '0')}`,
      name: `event_${i % 7}`,
      attrs: { i: String(i), parity: i % 2 ? 'odd' : 'even' },
      version: 1,
    }));
    const result = await client.insert({ table: 'events', values, format: 'JSONEachRow' });
    expect(result.executed).toBe(true);
    expect(result.summary?.written_rows).toBe('10000');
    const [{ n }] = await (await client.query({ query: 'SELECT count() AS n FROM events', format: 'JSONEachRow' })).json<{ n: string }>();
    // UInt64 is quoted in JSON, as on a server (output_format_json_quote_64bit_integers=1).
    expect(n).toBe('10000');
  });

  it('binds query_params server-side, including quotes, backslashes and arrays', async () => {
    const tricky = `it's a \\ back'slash "quoted"\ttab\nnewline'; DROP TABLE events; --`;
    const rows = await (
      await client.query({
        query: `
          SELECT {s:String} AS s, {names:Array(String)} AS names, count() AS n
          FROM events
          WHERE name IN {names:Array(String)} AND ts >= {since:DateTime64(3, 'UTC')}`,
        query_params: { s: tricky, names: ['event_1', "event_'2", 'event_3'], since: new Date('2024-05-01T12:00:00.500Z') },
        format: 'JSONEachRow',
      })
    ).json<{ s: string; names: string[]; n: string }>();
    expect(rows).toEqual([{ s: tricky, names: ['event_1', "event_'2", 'event_3'], n: expect.any(String) }]);
    expect(Number(rows[0].n)).toBeGreaterThan(0);
    // The injection attempt inside the value stayed a value.
    const [{ result }] = await (await client.query({ query: 'EXISTS TABLE events', format: 'JSONEachRow' })).json<{ result: number }>();
    expect(result).toBe(1);
  });

  it('binds long params sent as a multipart body', async () => {
    const multipart = connect({ use_multipart_params: true });
    try {
      const long = 'x'.repeat(10_000);
      const [row] = await (await multipart.query({ query: 'SELECT length({s:String}) AS len', query_params: { s: long }, format: 'JSONEachRow' })).json<{ len: string }>();
      expect(row.len).toBe('10000');
    } finally {
      await multipart.close();
    }
  });

  it('surfaces server errors as ClickHouseError with code and type', async () => {
    const error = await client.query({ query: 'SELECT * FROM no_such_table', format: 'JSONEachRow' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClickHouseError);
    expect(error).toMatchObject({ code: '60', type: 'UNKNOWN_TABLE' });
    const syntax = await client.command({ query: 'CREATE TABLE (' }).catch((e: unknown) => e);
    expect(syntax).toMatchObject({ code: '62', type: 'SYNTAX_ERROR' });
    const badRow = await client
      .insert({ table: 'events', values: [{ id: 'not a number' }], format: 'JSONEachRow' })
      .catch((e: unknown) => e);
    expect(badRow).toBeInstanceOf(ClickHouseError);
  });

  it('answers 50 concurrent queries', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const rs = await client.query({ query: 'SELECT {i:UInt32} * 2 AS v, count() AS n FROM events', query_params: { i }, format: 'JSONEachRow' });
        return rs.json<{ v: string; n: string }>();
      }),
    );
    results.forEach((rows, i) => expect(rows).toEqual([{ v: String(i * 2), n: '10000' }]));
  });

  it('accepts gzip request bodies and gzips responses when asked', async () => {
    const gzip = connect({ compression: { request: true, response: true } });
    try {
      await gzip.command({ query: 'CREATE TABLE IF NOT EXISTS gz (a UInt32, s String) ENGINE = MergeTree ORDER BY a' });
      await gzip.insert({ table: 'gz', values: Array.from({ length: 500 }, (_, a) => ({ a, s: `row ${a}` })), format: 'JSONEachRow' });
      const rs = await gzip.query({ query: 'SELECT count() AS n, max(s) AS s FROM gz', format: 'JSONEachRow' });
      expect(rs.response_headers['content-encoding']).toBe('gzip');
      expect(await rs.json()).toEqual([{ n: '500', s: 'row 99' }]);
    } finally {
      await gzip.close();
    }
  });

  it('runs exec and streams inserts with column lists and settings', async () => {
    await client.command({ query: 'CREATE TABLE IF NOT EXISTS kv (k String, v UInt32, note String DEFAULT \'-\') ENGINE = MergeTree ORDER BY k' });
    await client.insert({
      table: 'kv',
      values: Readable.from(['a,1\n', 'b,2\n'], { objectMode: false }),
      format: 'CSV',
      columns: ['k', 'v'],
      clickhouse_settings: { input_format_csv_use_default_on_bad_values: 1 },
    });
    await client.exec({ query: "INSERT INTO kv SELECT 'c', 3, 'from select'" });
    const rows = await (await client.query({ query: 'SELECT k, v, note FROM kv ORDER BY k', format: 'JSONCompactEachRow' })).json();
    expect(rows).toEqual([['a', 1, '-'], ['b', 2, '-'], ['c', 3, 'from select']]);
  });

  it('applies clickhouse_settings to one request only', async () => {
    const quoted = await (
      await client.query({ query: 'SELECT toUInt64(7) AS u', format: 'JSONEachRow', clickhouse_settings: { output_format_json_quote_64bit_integers: 0 } })
    ).json();
    expect(quoted).toEqual([{ u: 7 }]);
    expect(await (await client.query({ query: 'SELECT toUInt64(7) AS u', format: 'JSONEachRow' })).json()).toEqual([{ u: '7' }]);
  });

  it('keeps data across a restart', async () => {
    await client.close();
    await standin.close();
    standin = await startStandin({ port: 0, dataDir });
    client = connect();
    const [row] = await (await client.query({ query: 'SELECT count() AS n, uniqExact(name) AS names FROM events', format: 'JSONEachRow' })).json<{ n: string; names: string }>();
    expect(row).toEqual({ n: '10000', names: '7' });
  });
});
