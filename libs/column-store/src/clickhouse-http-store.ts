import { createClient, ClickHouseError } from '@clickhouse/client';
import { ColumnStoreError, clickHouseFailure, type ColumnStore } from './column-store.ts';

export interface ClickHouseStoreOptions {
  url: string;
  database: string;
  username?: string;
  password?: string;
  requestTimeoutMs?: number;
}

/** ClickHouse server (24.x or later, or the dev stand-in) through the official HTTP client. */
export function createClickHouseStore(opts: ClickHouseStoreOptions): ColumnStore {
  const client = createClient({
    url: opts.url,
    database: opts.database,
    username: opts.username ?? 'default',
    password: opts.password ?? '',
    request_timeout: opts.requestTimeoutMs ?? 30_000,
    max_open_connections: 8,
  });
  const wrap = <T>(p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      if (err instanceof ClickHouseError) throw clickHouseFailure(err.message, err.code);
      // Transport failures (refused, reset, timeout): the server may come back.
      throw new ColumnStoreError((err as Error).message ?? String(err), true);
    });

  return {
    kind: 'clickhouse',
    async insert(table, rows) {
      if (rows.length === 0) return;
      await wrap(client.insert({ table, values: rows as Record<string, unknown>[], format: 'JSONEachRow' }));
    },
    async query<T>(sql: string, params?: Record<string, unknown>) {
      return wrap(client.query({ query: sql, query_params: params, format: 'JSONEachRow' }).then((r) => r.json<T>()));
    },
    async command(sql) {
      await wrap(client.command({ query: sql }));
    },
    async ping() {
      const r = await client.ping();
      if (!r.success) throw new ColumnStoreError(`ClickHouse ping failed: ${(r as { error?: Error }).error?.message ?? 'unknown'}`, true);
    },
    async close() {
      await client.close();
    },
  };
}

/** Creates the database if missing (before a store bound to it is used). */
export async function ensureClickHouseDatabase(opts: ClickHouseStoreOptions): Promise<void> {
  const client = createClient({ url: opts.url, username: opts.username ?? 'default', password: opts.password ?? '' });
  try {
    await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${opts.database}` });
  } finally {
    await client.close();
  }
}
