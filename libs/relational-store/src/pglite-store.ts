import { PGlite } from '@electric-sql/pglite';
import { rethrowRelational, type RelationalStore } from './relational-store.ts';

/**
 * In-process PostgreSQL (PGlite) for the embedded mode; `dataDir` undefined keeps it in memory.
 * `seed`: a data directory dumped by `dumpPglite`, loaded in place of a fresh initdb.
 */
export async function createPgliteStore(dataDir?: string, seed?: Blob): Promise<RelationalStore & { dump(): Promise<Blob> }> {
  const db = new PGlite(dataDir, seed ? { loadDataDir: seed } : {});
  await db.waitReady;
  return {
    kind: 'pglite',
    async query<T>(sql: string, params?: unknown[]) {
      return (await db.query(sql, params as unknown[]).catch(rethrowRelational)).rows as T[];
    },
    transaction(fn) {
      return db.transaction((tx) =>
        fn({ query: async <T>(sql: string, params?: unknown[]) => (await tx.query(sql, params as unknown[]).catch(rethrowRelational)).rows as T[] }),
      );
    },
    async listen(channel, onNotify) {
      // One process, one connection: notifications cannot be missed, so no reset.
      const unsub = await db.listen(channel, onNotify);
      return async () => unsub();
    },
    async ping() {
      await db.query('SELECT 1').catch(rethrowRelational);
    },
    async close() {
      await db.close();
    },
    /** The data directory as a tarball, to `seed` another store with (tests start from a migrated one). */
    dump: () => db.dumpDataDir('none'),
  };
}
