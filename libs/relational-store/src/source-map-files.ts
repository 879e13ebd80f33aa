import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// Source maps' bytes as files beside the relational store, where that store runs on this
// process's own thread (PGlite, embedded mode): PGlite takes ~0.5 s of the event loop per MiB of
// bytea, while a file is written and read by the thread pool (docs/source-maps.md, "Storage
// and limits"). The row keeps the file's key; the bytes of a map in PostgreSQL stay in the row.
// Files are the owner's only (0600 in a 0700 directory), like the rest of the data directory.

const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const pathOf = (dir: string, key: string) => {
  if (!KEY.test(key)) throw new Error(`not a source map file key: ${key}`);
  return join(dir, `${key}.gz`);
};

export interface MapFiles {
  /** Writes a map's gzip under a new key, answered. */
  put(gzip: Uint8Array): Promise<string>;
  get(key: string): Promise<Uint8Array | null>;
  remove(keys: ReadonlyArray<string | null>): Promise<void>;
  /** Removes files no row names (`kept`), older than `graceMs` (an upload's file is written before its row). */
  sweep(kept: ReadonlySet<string>, graceMs?: number): Promise<number>;
}

export function mapFiles(dir: string): MapFiles {
  const ready = mkdir(dir, { recursive: true, mode: 0o700 });
  return {
    async put(gzip) {
      await ready;
      const key = randomUUID();
      await writeFile(pathOf(dir, key), gzip, { mode: 0o600 });
      return key;
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(dir, key)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async remove(keys) {
      await Promise.all(keys.filter((k): k is string => k !== null).map((k) => rm(pathOf(dir, k), { force: true })));
    },
    async sweep(kept, graceMs = 60_000) {
      await ready;
      let removed = 0;
      for (const name of await readdir(dir)) {
        const key = name.replace(/\.gz$/, '');
        if (!KEY.test(key) || kept.has(key)) continue;
        const path = join(dir, name);
        if (Date.now() - (await stat(path)).mtimeMs < graceMs) continue;
        await rm(path, { force: true });
        removed++;
      }
      return removed;
    },
  };
}
