import type { RelationalStore } from './relational-store.ts';

// Uploaded source maps (docs/source-maps.md): stored gzipped in PostgreSQL (bytea), one per
// (project, release, file URL key), findable by debug id too. A re-upload replaces.

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

const INFO = 'id, release, url_key, debug_id, bytes, octet_length(map_gzip) AS stored, created_at';

export function sourceMapsRepo(store: RelationalStore) {
  return {
    /** Stores (or replaces) a map compressed elsewhere (the dashboard's source-map worker); answers what is stored. */
    async putCompressed(projectId: string, u: SourceMapUpload): Promise<SourceMapInfo> {
      const [row] = await store.query<InfoRow>(
        `INSERT INTO source_maps (project_id, release, url_key, debug_id, bytes, map_gzip) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (project_id, release, url_key) DO UPDATE SET debug_id = EXCLUDED.debug_id, bytes = EXCLUDED.bytes, map_gzip = EXCLUDED.map_gzip, created_at = now()
         RETURNING ${INFO}`,
        [projectId, u.release, u.urlKey, u.debugId, u.bytes, Buffer.from(u.gzip.buffer, u.gzip.byteOffset, u.gzip.byteLength)],
      );
      return toInfo(row);
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
      const rows = await store.query<{ map_gzip: Buffer | Uint8Array }>('SELECT map_gzip FROM source_maps WHERE project_id = $1 AND id = $2', [projectId, id]);
      return rows[0] ? toBuffer(rows[0].map_gzip) : null;
    },

    /** What a project holds: count and stored bytes, for the upload limits. */
    async usage(projectId: string): Promise<{ files: number; storedBytes: number; releaseFiles: (release: string) => Promise<number> }> {
      const [row] = await store.query<{ n: string | number; b: string | number | null }>(
        'SELECT count(*) AS n, sum(octet_length(map_gzip)) AS b FROM source_maps WHERE project_id = $1',
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
      const rows = await store.query('DELETE FROM source_maps WHERE project_id = $1 AND release = $2 AND ($3::text IS NULL OR url_key = $3) RETURNING id', [
        projectId,
        release,
        urlKey ?? null,
      ]);
      return rows.length;
    },
  };
}

export type SourceMapsRepo = ReturnType<typeof sourceMapsRepo>;
