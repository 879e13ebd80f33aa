import type { RelationalStore } from './relational-store.ts';
import type { MapFiles } from './source-map-files.ts';

// Uploaded source maps (docs/source-maps.md): stored gzipped, one per (project, release, file URL
// key), findable by debug id too. A re-upload replaces. The bytes are in the row (bytea) in
// PostgreSQL, or in a file the row names when `files` is given (source-map-files.ts: PGlite, whose
// SQL runs on this thread).

export interface SourceMapInfo {
  id: string;
  release: string;
  urlKey: string;
  debugId: string | null;
  bytes: number;
  storedBytes: number;
  createdAt: string;
}

export interface SourceMapUpload {
  release: string;
  urlKey: string;
  debugId: string | null;
  /** The map's JSON text's size in bytes, and its gzip (made by the dashboard's source-map worker). */
  bytes: number;
  gzip: Uint8Array;
}

const iso = (d: Date | string) => new Date(d).toISOString();
const toBuffer = (b: Buffer | Uint8Array) => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));

interface InfoRow {
  id: string;
  release: string;
  url_key: string;
  debug_id: string | null;
  bytes: number;
  stored: number | string;
  created_at: Date | string;
}

const toInfo = (r: InfoRow): SourceMapInfo => ({
  id: r.id,
  release: r.release,
  urlKey: r.url_key,
  debugId: r.debug_id,
  bytes: r.bytes,
  storedBytes: Number(r.stored),
  createdAt: iso(r.created_at),
});

const INFO = 'id, release, url_key, debug_id, bytes, stored_bytes AS stored, created_at';

export function sourceMapsRepo(store: RelationalStore, files?: MapFiles) {
  return {
    /** Stores (or replaces) a map compressed elsewhere (the dashboard's source-map worker); answers what is stored. */
    async putCompressed(projectId: string, u: SourceMapUpload): Promise<SourceMapInfo> {
      const gzip = Buffer.from(u.gzip.buffer, u.gzip.byteOffset, u.gzip.byteLength);
      const key = files ? await files.put(gzip) : null;
      try {
        // The replaced map's file, if any, goes once the row names the new one.
        const [row] = await store.query<InfoRow & { replaced: string | null }>(
          `WITH old AS (SELECT file_key FROM source_maps WHERE project_id = $1 AND release = $2 AND url_key = $3)
           INSERT INTO source_maps (project_id, release, url_key, debug_id, bytes, map_gzip, file_key, stored_bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (project_id, release, url_key) DO UPDATE SET debug_id = EXCLUDED.debug_id, bytes = EXCLUDED.bytes, map_gzip = EXCLUDED.map_gzip,
             file_key = EXCLUDED.file_key, stored_bytes = EXCLUDED.stored_bytes, created_at = now()
           RETURNING ${INFO}, (SELECT file_key FROM old) AS replaced`,
          [projectId, u.release, u.urlKey, u.debugId, u.bytes, key ? null : gzip, key, gzip.byteLength],
        );
        await files?.remove([row.replaced]);
        return toInfo(row);
      } catch (err) {
        await files?.remove([key]);
        throw err;
      }
    },

    /** Which stored map serves a file (as find), without its bytes. */
    async findRef(projectId: string, where: { debugId?: string | null; release: string; urlKey: string }): Promise<{ id: string; bytes: number } | null> {
      const rows = await store.query<{ id: string; bytes: string | number }>(
        `SELECT id, bytes FROM source_maps
          WHERE project_id = $1 AND (($2::uuid IS NOT NULL AND debug_id = $2::uuid) OR (release = $3 AND url_key = $4))
          ORDER BY (debug_id IS NOT DISTINCT FROM $2::uuid) DESC LIMIT 1`,
        [projectId, where.debugId ?? null, where.release, where.urlKey],
      );
      return rows[0] ? { id: rows[0].id, bytes: Number(rows[0].bytes) } : null;
    },

    /** A stored map's gzip, as stored (decompressed by whoever reads it). */
    async gzipOf(projectId: string, id: string): Promise<Uint8Array | null> {
      const rows = await store.query<{ map_gzip: Buffer | Uint8Array | null; file_key: string | null }>(
        'SELECT map_gzip, file_key FROM source_maps WHERE project_id = $1 AND id = $2',
        [projectId, id],
      );
      const row = rows[0];
      if (!row) return null;
      if (row.file_key) return files ? files.get(row.file_key) : null;
      return row.map_gzip ? toBuffer(row.map_gzip) : null;
    },

    /** What a project holds: count and stored bytes, for the upload limits. */
    async usage(projectId: string): Promise<{ files: number; storedBytes: number; releaseFiles: (release: string) => Promise<number> }> {
      const [row] = await store.query<{ n: string | number; b: string | number | null }>(
        'SELECT count(*) AS n, sum(stored_bytes) AS b FROM source_maps WHERE project_id = $1',
        [projectId],
      );
      return {
        files: Number(row.n),
        storedBytes: Number(row.b ?? 0),
        releaseFiles: async (release) =>
          Number((await store.query<{ n: string | number }>('SELECT count(*) AS n FROM source_maps WHERE project_id = $1 AND release = $2', [projectId, release]))[0].n),
      };
    },

    async list(projectId: string, release?: string, limit = 500): Promise<SourceMapInfo[]> {
      const rows = await store.query<InfoRow>(
        `SELECT ${INFO} FROM source_maps WHERE project_id = $1 AND ($2::text IS NULL OR release = $2) ORDER BY release, url_key LIMIT $3`,
        [projectId, release ?? null, limit],
      );
      return rows.map(toInfo);
    },

    async remove(projectId: string, release: string, urlKey?: string): Promise<number> {
      const rows = await store.query<{ file_key: string | null }>(
        'DELETE FROM source_maps WHERE project_id = $1 AND release = $2 AND ($3::text IS NULL OR url_key = $3) RETURNING file_key',
        [projectId, release, urlKey ?? null],
      );
      await files?.remove(rows.map((r) => r.file_key));
      return rows.length;
    },

    /** Removes the files no map names any more (a deleted project's, say); the count removed. */
    async sweepFiles(graceMs?: number): Promise<number> {
      if (!files) return 0;
      const kept = await store.query<{ file_key: string }>('SELECT file_key FROM source_maps WHERE file_key IS NOT NULL');
      return files.sweep(new Set(kept.map((r) => r.file_key)), graceMs);
    },
  };
}

export type SourceMapsRepo = ReturnType<typeof sourceMapsRepo>;
