import { Session } from 'chdb';
import { ColumnStoreError, clickHouseFailure, type ColumnStore } from './column-store.ts';
import { abortExits } from './abort-exits.ts';
import { boundedRead } from './bounded-read.ts';
import { READ_LIMIT_DEFAULTS, SERVER_READ_LIMITS, settingsClause, type ReadClass, type ReadLimits } from './read-limits.ts';
import { writesFirst } from './writes-first.ts';

/**
 * The chdb engine in-process (embedded mode): the same SQL as the server. libchdb
 * binds one data directory per process, so a process opens at most one of these.
 * Queries run off the event loop; the engine runs them one at a time, writes before waiting
 * reads (writes-first.ts). Every read under `reads` (bounded-read.ts).
 */
export function createChdbStore(
  dataDir: string,
  database: string,
  reads: ReadLimits = { ...SERVER_READ_LIMITS, maxExecutionMs: READ_LIMIT_DEFAULTS.oneConnectionMs },
): ColumnStore {
  const session = new Session(dataDir);
  abortExits(); // after libchdb has installed its signal handlers (abort-exits.ts)
  session.query(`CREATE DATABASE IF NOT EXISTS ${database}`);
  session.query(`USE ${database}`);
  let closed = false;
  const engine = writesFirst();

  const wrap = async <T>(run: () => Promise<T>, kind: 'write' | 'read' = 'write', priority?: number): Promise<T> => {
    if (closed) throw new ColumnStoreError('column store closed', true);
    try {
      return await engine.run(kind, run, priority);
    } catch (err) {
      const msg = (err as Error).message ?? String(err);
      // A parameter the binding cannot write (an integer past 2^53): this query, never the engine.
      if ((err as { code?: string }).code === 'CHDB_BIND') throw new ColumnStoreError(msg, false, 'CHDB_BIND');
      const code = /Code: (\d+)\./.exec(msg)?.[1];
      throw clickHouseFailure(msg, code);
    }
  };

  return {
    kind: 'chdb',
    insert: (table, rows) =>
      wrap(async () => {
        if (rows.length === 0) return { bytes: 0 };
        const body = Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n'));
        await session.insert({ table, values: body, format: 'JSONEachRow' });
        return { bytes: body.length };
      }),
    insertCells: (table, columns, rows) =>
      wrap(async () => {
        if (rows.length === 0) return { bytes: 0 };
        const body = Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n'));
        await session.insert({ table, columns: [...columns], values: body, format: 'JSONCompactEachRow' });
        return { bytes: body.length };
      }),
    query: <T>(sql: string, params?: Record<string, unknown>, read?: ReadClass) =>
      boundedRead(reads, read, (settings) =>
        wrap(
          async () => {
            const r = await session.queryBindAsync(sql + settingsClause(settings), params ?? {}, { format: 'JSONEachRow' });
            const text = r.text().trim();
            return text === '' ? [] : (text.split('\n').map((l) => JSON.parse(l)) as T[]);
          },
          'read',
          settings.priority,
        ),
      ),
    command: (sql, params) =>
      wrap(async () => {
        if (params) await session.queryBindAsync(sql, params, { format: 'TabSeparated' });
        else await session.queryAsync(sql, { format: 'TabSeparated' });
      }),
    ping: () =>
      wrap(async () => {
        await session.queryAsync('SELECT 1', { format: 'TabSeparated' });
      }),
    async close() {
      closed = true;
      session.close();
    },
  };
}
