import { createClient, ClickHouseError, type ClickHouseSettings, ClickHouseLogLevel, type Logger as ClickHouseLogger, type LogParams } from '@clickhouse/client';
import { reachability, type LogFn } from '@devtrail/failures';
import { ColumnStoreError, clickHouseFailure, type ColumnStore } from './column-store.ts';
import { boundedRead } from './bounded-read.ts';
import { SERVER_READ_LIMITS, type ReadClass, type ReadLimits } from './read-limits.ts';

export interface ClickHouseStoreOptions {
  url: string;
  database: string;
  username?: string;
  password?: string;
  requestTimeoutMs?: number;
  /** Settings of every insert (on a cluster: its quorum, clusterInsertSettings). */
  insertSettings?: Record<string, string | number>;
  /** Where the client's lines go (its own at debug; see clientLogger), and one line per change of the server's reachability. */
  log?: LogFn;
  /** The limits of every read (config.reads; a server's defaults when unset): bounded-read.ts. */
  reads?: ReadLimits;
}

/**
 * The client's own logging, through ours. Its errors are the failed requests, each of which
 * also rejects to the caller (who retries or answers 503), and an outage is logged once by the
 * store: they go to debug. Its warnings are about configuration and socket handling: warn.
 */
function clientLogger(log: LogFn | undefined): new () => ClickHouseLogger {
  const line = (level: Parameters<LogFn>[0], { module, message, args }: LogParams, err?: Error) =>
    log?.(level, `@clickhouse/client: ${message}`, { module, ...args, ...(err ? { err: err.message } : {}) });
  return class {
    trace(p: LogParams) {
      line('trace', p);
    }
    debug(p: LogParams) {
      line('debug', p);
    }
    info(p: LogParams) {
      line('debug', p);
    }
    warn(p: LogParams & { err?: Error }) {
      line('warn', p, p.err);
    }
    error(p: LogParams & { err: Error }) {
      line('debug', p, p.err);
    }
  };
}

const REQUEST_TIMEOUT_MS = 30_000;

/** ClickHouse server (24.8 or later, server-version.ts; or the dev stand-in) through the official HTTP client. */
export function createClickHouseStore(opts: ClickHouseStoreOptions): ColumnStore {
  const client = createClient({
    url: opts.url,
    database: opts.database,
    username: opts.username ?? 'default',
    password: opts.password ?? '',
    request_timeout: opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    max_open_connections: 8,
    log: { LoggerClass: clientLogger(opts.log), level: ClickHouseLogLevel.WARN },
  });
  const server = reachability('clickhouse', opts.log);
  const wrap = <T>(p: Promise<T>): Promise<T> =>
    p.then(
      (v) => (server.reached(), v),
      (err: unknown) => {
        if (err instanceof ClickHouseError) {
          server.reached();
          throw clickHouseFailure(err.message, err.code);
        }
        // Transport failures (refused, reset, timeout): the server may come back.
        server.unreachable(err);
        throw new ColumnStoreError((err as Error).message ?? String(err), true);
      },
    );

  return {
    kind: 'clickhouse',
    async insert(table, rows) {
      if (rows.length === 0) return { bytes: 0 };
      const r = await wrap(client.insert({ table, values: rows as Record<string, unknown>[], format: 'JSONEachRow', clickhouse_settings: opts.insertSettings }));
      return { bytes: Number(r.summary?.written_bytes ?? 0) };
    },
    async insertCells(table, columns, rows) {
      if (rows.length === 0) return { bytes: 0 };
      const r = await wrap(
        client.insert({
          table,
          values: rows as unknown[][],
          columns: columns as [string, ...string[]],
          format: 'JSONCompactEachRow',
          clickhouse_settings: opts.insertSettings,
        }),
      );
      return { bytes: Number(r.summary?.written_bytes ?? 0) };
    },
    query<T>(sql: string, params?: Record<string, unknown>, read?: ReadClass) {
      return boundedRead(opts.reads ?? SERVER_READ_LIMITS, read, (settings) =>
        wrap(client.query({ query: sql, query_params: params, format: 'JSONEachRow', clickhouse_settings: settings as ClickHouseSettings }).then((r) => r.json<T>())),
      );
    },
    async command(sql, params) {
      await wrap(client.command({ query: sql, query_params: params }));
    },
    async ping() {
      const r = await client.ping();
      if (r.success) return server.reached();
      const err = new ColumnStoreError(`ClickHouse ping failed: ${(r as { error?: Error }).error?.message ?? 'unknown'}`, true);
      server.unreachable(err);
      throw err;
    },
    async close() {
      await client.close();
    },
  };
}

/** Creates the database if missing (before a store bound to it is used). */
export async function ensureClickHouseDatabase(opts: ClickHouseStoreOptions): Promise<void> {
  const client = createClient({
    url: opts.url,
    username: opts.username ?? 'default',
    password: opts.password ?? '',
    log: { LoggerClass: clientLogger(opts.log), level: ClickHouseLogLevel.WARN },
  });
  try {
    // Another replica starting at the same moment may win the race: its database will do (code 82).
    await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${opts.database}` }).catch((err: unknown) => {
      if (!(err instanceof ClickHouseError && err.code === '82')) throw err;
    });
  } finally {
    await client.close();
  }
}

/**
 * An insert into a cluster's Distributed table (docs/deployment.md#a-clickhouse-cluster) answers once
 * `quorum` replicas of each shard it wrote to hold the rows ('auto': a majority): the insert is
 * forwarded at once, not queued on the receiving node's disk, and the quorum is waited for less
 * long than the client's request timeout, so that a missing replica is a retryable error the
 * consumer retries, with its offsets not committed.
 */
export const clusterInsertSettings = (quorum: string, requestTimeoutMs = REQUEST_TIMEOUT_MS) => ({
  distributed_foreground_insert: 1,
  insert_quorum: quorum,
  insert_quorum_timeout: Math.floor((requestTimeoutMs * 2) / 3),
});
