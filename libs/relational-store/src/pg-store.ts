import pg from 'pg';
import { rethrowRelational, type RelationalStore, type SqlExecutor } from './relational-store.ts';

export interface PgStoreOptions {
  url: string;
  /** Bounds on every wait for PostgreSQL (config POSTGRES_*_TIMEOUT_MS): a frozen server is an outage (503), not a hang. */
  connectTimeoutMs?: number;
  queryTimeoutMs?: number;
  maxConnections?: number;
  onError?: (err: Error) => void;
}

/** PostgreSQL over a pool, plus one dedicated connection for LISTEN that reconnects by itself. */
export function createPgStore(opts: PgStoreOptions): RelationalStore {
  const onError = opts.onError ?? (() => {});
  const connectionTimeoutMillis = opts.connectTimeoutMs ?? 2000;
  const queryTimeoutMs = opts.queryTimeoutMs ?? 2000;
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.maxConnections ?? 10,
    connectionTimeoutMillis,
    idleTimeoutMillis: 30_000,
  });
  // An idle client dying (server restart) must not crash the process.
  pool.on('error', onError);
  const listeners = new Set<{ stop: () => Promise<void> }>();
  let closed = false;

  const exec = async <T>(client: pg.Pool | pg.PoolClient, sql: string, params?: unknown[], timeoutMs?: number) =>
    // query_timeout per query is honoured by pg's client (lib/client.js) though its types omit it.
    (await client.query({ text: sql, values: params as unknown[], query_timeout: timeoutMs } as pg.QueryConfig).catch(rethrowRelational)).rows as T[];

  return {
    kind: 'postgres',
    // Single statements are the request path (key lookups, rate-limit leases): the client
    // gives up after queryTimeoutMs, since a stopped server enforces nothing, and the pool
    // drops that connection. Transactions (admin writes, migrations) may take longer.
    query: (sql, params) => exec(pool, sql, params, queryTimeoutMs),
    async transaction(fn) {
      const client = await pool.connect().catch(rethrowRelational);
      let failed = false;
      try {
        await exec(client, 'BEGIN');
        const tx: SqlExecutor = { query: (sql, params) => exec(client, sql, params) };
        const result = await fn(tx);
        await exec(client, 'COMMIT');
        return result;
      } catch (err) {
        failed = true;
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        // After a failure the connection may be mid-query (a timeout): drop it, never reuse it.
        client.release(failed);
      }
    },
    async listen(channel, onNotify, onReset) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
      let client: pg.Client | undefined;
      let stopped = false;
      let retry: NodeJS.Timeout | undefined;
      const connect = async (isReconnect: boolean): Promise<void> => {
        const c = new pg.Client({ connectionString: opts.url, connectionTimeoutMillis });
        c.on('notification', (n) => n.channel === channel && onNotify(n.payload ?? ''));
        c.on('error', (err) => {
          onError(err);
          scheduleReconnect();
        });
        c.on('end', () => scheduleReconnect());
        try {
          await c.connect();
          await c.query(`LISTEN ${channel}`);
          client = c;
          if (isReconnect) onReset?.();
        } catch (err) {
          onError(err as Error);
          c.removeAllListeners('end');
          await c.end().catch(() => {});
          if (!isReconnect) throw err;
          scheduleReconnect();
        }
      };
      const scheduleReconnect = () => {
        if (stopped || closed || retry) return;
        client = undefined;
        // Caches are reset once the connection is back (connect(true) calls onReset),
        // not now: while PostgreSQL is unreachable, what was cached keeps working
        // (nobody can revoke a key in a database nobody reaches), and once it is back,
        // whatever changed meanwhile wins.
        retry = setTimeout(() => {
          retry = undefined;
          void connect(true);
        }, 1000);
      };
      await connect(false);
      const handle = {
        stop: async () => {
          stopped = true;
          if (retry) clearTimeout(retry);
          const c = client;
          client = undefined;
          if (c) {
            c.removeAllListeners('end');
            await c.end().catch(() => {});
          }
        },
      };
      listeners.add(handle);
      return async () => {
        listeners.delete(handle);
        await handle.stop();
      };
    },
    async ping() {
      await exec(pool, 'SELECT 1', [], queryTimeoutMs);
    },
    async close() {
      closed = true;
      await Promise.all([...listeners].map((l) => l.stop()));
      await pool.end();
    },
  };
}
