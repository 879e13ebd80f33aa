import { generateUploadToken, hashApiKey, uploadTokenDisplayPrefix } from '@devtrail/access';
import type { RelationalStore } from './relational-store.ts';

// A project's upload tokens (docs/source-maps.md): secrets for its build pipelines, each
// named, revocable, shown once at creation and stored only as a SHA-256 hash.

export interface UploadToken {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** At most this many active tokens per project. */
export const MAX_UPLOAD_TOKENS = 50;

interface Row {
  id: string;
  name: string;
  token_prefix: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
}
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const toToken = (r: Row): UploadToken => ({ id: r.id, name: r.name, prefix: r.token_prefix, createdAt: iso(r.created_at)!, lastUsedAt: iso(r.last_used_at) });
const COLUMNS = 'id, name, token_prefix, created_at, last_used_at';

export function uploadTokensRepo(store: RelationalStore) {
  return {
    /** A new token and its raw secret (returned this once); null when the project has MAX_UPLOAD_TOKENS active ones or does not exist. */
    async create(projectId: string, name: string): Promise<{ token: UploadToken; secret: string } | null> {
      const secret = generateUploadToken();
      const [row] = await store.query<Row>(
        `INSERT INTO upload_tokens (project_id, name, token_hash, token_prefix)
         SELECT $1, $2, $3, $4 FROM projects p
          WHERE p.id = $1 AND (SELECT count(*) FROM upload_tokens WHERE project_id = $1 AND revoked_at IS NULL) < $5
         RETURNING ${COLUMNS}`,
        [projectId, name, hashApiKey(secret), uploadTokenDisplayPrefix(secret), MAX_UPLOAD_TOKENS],
      );
      return row ? { token: toToken(row), secret } : null;
    },

    /** The active tokens, newest first. */
    async list(projectId: string): Promise<UploadToken[]> {
      const rows = await store.query<Row>(`SELECT ${COLUMNS} FROM upload_tokens WHERE project_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id`, [projectId]);
      return rows.map(toToken);
    },

    /** Whether an active token of this project with this id was revoked. */
    async revoke(projectId: string, id: string): Promise<boolean> {
      const rows = await store.query('UPDATE upload_tokens SET revoked_at = now() WHERE project_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id', [
        projectId,
        id,
      ]);
      return rows.length > 0;
    },

    /** The project an active token (by its hash) belongs to, noting its use; null for none. */
    async projectOf(tokenHash: string): Promise<string | null> {
      const rows = await store.query<{ project_id: string }>(
        `UPDATE upload_tokens SET last_used_at = now()
          WHERE token_hash = $1 AND revoked_at IS NULL
         RETURNING project_id`,
        [tokenHash],
      );
      return rows[0]?.project_id ?? null;
    },
  };
}

export type UploadTokensRepo = ReturnType<typeof uploadTokensRepo>;
