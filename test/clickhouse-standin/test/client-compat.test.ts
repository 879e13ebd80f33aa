import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClickHouseError, ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLICKHOUSE_FLOOR } from '@devtrail/column-store';
import { startStandin, type Standin } from '../src/index.ts';
import { ENGINES, titled } from './engines.ts';

// The production client, unchanged, making the calls devtrail's column store
// makes (libs/column-store/src/clickhouse-http-store.ts): ping, command, insert
// JSONEachRow, query with query_params and FORMAT JSONEachRow, with `database`; on either engine.
for (const engineCase of ENGINES) {
  const engine = engineCase.choice;
  describe.skipIf(Boolean(engineCase.skip))(titled('@clickhouse/client against the stand-in', engineCase), () => {
    let dataDir: string;
    let standin: Standin;
    let client: ClickHouseClient;

    // The client logs failed requests itself; the failures here are intended.
    const connect = (extra: Parameters<typeof createClient>[0] = {}) =>
      createClient({ url: standin.url, database: 'app', log: { level: ClickHouseLogLevel.OFF }, ...extra });
    const rows = async <T>(query: string, query_params?: Record<string, unknown>, on = client) =>
      (await on.query({ query, query_params, format: 'JSONEachRow' })).json<T>();

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), `clickhouse-standin-${engine.name}-`));
      standin = await startStandin({ port: 0, dataDir, engine });
      const bootstrap = connect({ database: undefined });
      await bootstrap.command({ query: 'CREATE DATABASE IF NOT EXISTS app' });
      await bootstrap.close();
      client = connect();
    });

    afterAll(async () => {
      await client?.close();
      await standin?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('pings, and runs the chosen engine', async () => {
      expect(await client.ping()).toEqual({ success: true });
      const [{ v }] = await rows<{ v: string }>('SELECT version() AS v');
      expect(v).toBe(standin.version);
      if (engine.name === 'floor') expect(v).toBe(CLICKHOUSE_FLOOR.tested);
    });

    it('runs DDL in the client database: a ReplacingMergeTree with TTL and server-style column types', async () => {
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
      const columns = await rows<{ database: string; name: string; type: string }>(
        "SELECT database, name, type FROM system.columns WHERE table = 'events' AND database != 'system' ORDER BY position",
      );
      expect(columns.map((c) => `${c.database}.${c.name} ${c.type}`)).toEqual([
        'app.id UInt64',
        "app.ts DateTime64(3, 'UTC')",
        'app.name LowCardinality(String)',
        'app.attrs Map(String, String)',
        'app.version UInt32',
      ]);
    });

    it('inserts 10,000 JSONEachRow rows', async () => {
      const values = Array.from({ length: 10_000 }, (_, i) => ({
        id: i,
        ts: `2024-05-01 12:00:00.${String(i % 1000).padStart(3, '0')}`,
        name: `event_${i % 7}`,
        attrs: { i: String(i), parity: i % 2 ? 'odd' : 'even' },
        version: 1,
      }));
      expect((await client.insert({ table: 'events', values, format: 'JSONEachRow' })).executed).toBe(true);
      // UInt64 is quoted in JSON, as on a server (output_format_json_quote_64bit_integers=1).
      expect(await rows('SELECT count() AS n, uniqExact(name) AS names FROM events FINAL')).toEqual([{ n: '10000', names: '7' }]);
    });

    it('binds query_params server-side: quotes, backslashes, control characters, arrays, dates, NULL', async () => {
      const tricky = `it's a \\ back'slash "quoted"\ttab\nnewline\\'; DROP TABLE events; --`;
      const names = ['event_1', "event_'2", 'event_3\\', 'tab\there'];
      const result = await rows<{ s: string; names: string[]; none: null; big: string; n: string }>(
        `SELECT {s:String} AS s, {names:Array(String)} AS names, {none:Nullable(String)} AS none, {big:Int64} AS big, count() AS n
       FROM events
       WHERE name IN {names:Array(String)} AND ts >= {since:DateTime64(3, 'UTC')}`,
        { s: tricky, names, none: null, big: -9007199254740991, since: new Date('2024-05-01T12:00:00.500Z') },
      );
      // Only 'event_1' names rows (i % 7 == 1), from .500 on (i % 1000 >= 500).
      const expected = Array.from({ length: 10_000 }, (_, i) => i).filter((i) => i % 7 === 1 && i % 1000 >= 500).length;
      expect(result).toEqual([{ s: tricky, names, none: null, big: '-9007199254740991', n: String(expected) }]);
      // The injection attempt inside the value stayed a value.
      expect(await rows('EXISTS TABLE events')).toEqual([{ result: 1 }]);
    });

    it('answers concurrent requests for different databases each in its own database', async () => {
      const other = connect({ database: 'system' });
      try {
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, i) => rows<{ db: string; v: string }>('SELECT currentDatabase() AS db, {i:UInt32} * 2 AS v', { i }, i % 2 ? other : client)),
        );
        answers.forEach((answer, i) => expect(answer).toEqual([{ db: i % 2 ? 'system' : 'app', v: String(i * 2) }]));
      } finally {
        await other.close();
      }
    });

    it('surfaces server errors as ClickHouseError with code and type', async () => {
      const error = (p: Promise<unknown>) =>
        p.then(
          () => 'no error',
          (e: unknown) => e,
        );
      const missing = await error(rows('SELECT * FROM no_such_table'));
      expect(missing).toBeInstanceOf(ClickHouseError);
      expect(missing).toMatchObject({ code: '60', type: 'UNKNOWN_TABLE' });
      expect(await error(client.command({ query: 'CREATE TABLE (' }))).toMatchObject({ code: '62', type: 'SYNTAX_ERROR' });
      const badRow = client.insert({ table: 'events', values: [{ id: 'not a number' }], format: 'JSONEachRow' });
      expect(await error(badRow)).toMatchObject({ code: '27', type: 'CANNOT_PARSE_INPUT_ASSERTION_FAILED' });
      const nowhere = connect({ database: 'no_such_db' });
      expect(await error(rows('SELECT 1', {}, nowhere))).toMatchObject({ code: '81', type: 'UNKNOWN_DATABASE' });
      await nowhere.close();
    });

    it("puts the server's status, exception header and body on the wire", async () => {
      const res = await fetch(`${standin.url}/?database=app`, { method: 'POST', body: 'SELECT * FROM no_such_table' });
      expect(res.status).toBe(404);
      expect(res.headers.get('x-clickhouse-exception-code')).toBe('60');
      expect(await res.text()).toMatch(/^Code: 60\. DB::Exception: .*\. \(UNKNOWN_TABLE\) \(version \d+\.\d+\.\d+\.\d+\)\n$/s);
    });

    it('honours the read limits devtrail sends, as a server does', async () => {
      const error = (p: Promise<unknown>) =>
        p.then(
          () => 'no error',
          (e: unknown) => e,
        );
      const limited = connect({
        clickhouse_settings: { readonly: '2', max_execution_time: 1, max_rows_to_read: '1000', max_bytes_to_read: '1000000000', priority: '2' },
      });
      expect(await rows('SELECT 1 AS a', undefined, limited)).toEqual([{ a: 1 }]);
      expect(await error(rows('SELECT count() AS n FROM numbers(100000)', undefined, limited))).toMatchObject({ code: '158', type: 'TOO_MANY_ROWS' });
      const slow = rows('SELECT sleepEachRow(0.5) FROM numbers(10) SETTINGS max_block_size = 1', undefined, limited);
      expect(await error(slow)).toMatchObject({ code: '159', type: 'TIMEOUT_EXCEEDED' });
      // 24.8's parser takes a SETTINGS clause after CREATE TABLE for the table engine's, so on
      // the floor the statement is refused as an unknown table setting (README, "What it does not do").
      const refused = engine.name === 'floor' ? { code: '115', type: 'UNKNOWN_SETTING' } : { code: '164', type: 'READONLY' };
      await expect(limited.command({ query: 'CREATE TABLE never (x UInt8) ENGINE = Memory' })).rejects.toMatchObject(refused);
      await limited.close();
    });

    it('refuses other settings and compression with NOT_IMPLEMENTED instead of ignoring them', async () => {
      const withSettings = connect({ clickhouse_settings: { max_threads: 1 } });
      await expect(rows('SELECT 1', undefined, withSettings)).rejects.toMatchObject({
        code: '48',
        type: 'NOT_IMPLEMENTED',
        message: expect.stringContaining("'max_threads'"),
      });
      await withSettings.close();
      const gzip = connect({ compression: { request: true } });
      await expect(gzip.command({ query: 'SELECT 1' })).rejects.toMatchObject({ code: '48', type: 'NOT_IMPLEMENTED' });
      await gzip.close();
    });

    it('keeps data across a restart', async () => {
      await client.close();
      await standin.close();
      standin = await startStandin({ port: 0, dataDir, engine });
      client = connect();
      expect(await rows('SELECT count() AS n FROM events')).toEqual([{ n: '10000' }]);
    });
  });
}
