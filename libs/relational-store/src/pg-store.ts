import pg from 'pg';
import { rethrowRelational, type RelationalStore, type SqlExecutor } from './relational-store.ts';

export interface PgStoreOptions {
  url: string;
  maxConnections?: number;
  onError?: (err: Error) => void;
}

/** PostgreSQL over a pool, plus one dedicated connection for LISTEN that reconnects by itself. */
export function createPgStore(opts: PgStoreOptions): RelationalStore {
  const onError = opts.onError ?? (() => {});
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.maxConnections ?? 10,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client dying (server restart) must not crash the process.
  pool.on('error', onError);
  const listeners = new Set<{ stop: () => Promise<void> }>();
  let closed = false;

  const exec = async <T>(client: pg.Pool | pg.PoolClient, sql: string, params?: unknown[]) =>
    (await client.query(sql, params as unknown[]).catch(rethrowRelational)).rows as T[];

  return {
    kind: 'postgres',
    query: (sql, params) => exec(pool, sql, params),
    async transaction(fn) {
      const client = await pool.connect().catch(rethrowRelational);
      try {
        await exec(client, 'BEGIN');
        const tx: SqlExecutor = { query: (sql, params) => exec(client, sql, params) };
        const result = await fn(tx);
        await exec(client, 'COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async listen(channel, onNotify, onReset) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
      let client: pg.Client | undefined;
      let stopped = false;
      let retry: NodeJS.Timeout | undefined;
      const connect = async (isReconnect: boolean): Promise<void> => {
        const c = new pg.Client({ connectionString: opts.url, connectionTimeoutMillis: 3000 });
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
      await exec(pool, 'SELECT 1');
    },
    async close() {
      closed = true;
      await Promise.all([...listeners].map((l) => l.stop()));
      await pool.end();
    },
  };
}
