import { generateApiKey, hashApiKey, keyDisplayPrefix } from '@devtrail/access';

import type { RelationalStore, SqlExecutor } from './relational-store.ts';

/** Project ids are UUIDs: anything else is no project, answered without a query. */
export function isUuid(s: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
}

// Projects, their one active key, allowed origins and ingest settings. Every change
// NOTIFYs PROJECT_CHANGED_CHANNEL with the project id, so each receiver drops its cached
// view of that project at once (a revoked key stops working immediately: docs/api.md).
export const PROJECT_CHANGED_CHANNEL = 'devtrail_project_changed';

export interface Project {
  id: string;
  name: string;
  rateLimitPerMinute: number;
  hasDrainSecret: boolean;
  allowedOrigins: string[];
  keyPrefix: string | null;
  keyCreatedAt: string | null;
  createdAt: string;
}

/** What the receiver needs to admit a request, found by key hash. */
export interface KeyGrant {
  keyId: string;
  keyHash: string;
  projectId: string;
  rateLimitPerMinute: number;
  allowedOrigins: string[];
  drainSecret: string | null;
  /** The project's data policy as stored (docs/data.md; `{}`: every default), read by the receiver's accept step. */
  dataPolicy: unknown;
  /** Keys the "hash" scrubbing action; null while the project has no stored policy. */
  hashSalt: string | null;
}

interface ProjectRow {
  id: string;
  name: string;
  rate_limit_per_minute: number;
  drain_secret: string | null;
  created_at: Date | string;
  key_prefix: string | null;
  key_created_at: Date | string | null;
  origins: string[] | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const PROJECT_SELECT = `
  SELECT p.id, p.name, p.rate_limit_per_minute, p.drain_secret, p.created_at,
         k.key_prefix, k.created_at AS key_created_at,
         COALESCE((SELECT array_agg(o.origin ORDER BY o.origin) FROM allowed_origins o WHERE o.project_id = p.id), '{}') AS origins
    FROM projects p
    LEFT JOIN api_keys k ON k.project_id = p.id AND k.revoked_at IS NULL`;

function toProject(r: ProjectRow): Project {
  return {
    id: r.id,
    name: r.name,
    rateLimitPerMinute: r.rate_limit_per_minute,
    hasDrainSecret: r.drain_secret !== null,
    allowedOrigins: r.origins ?? [],
    keyPrefix: r.key_prefix,
    keyCreatedAt: iso(r.key_created_at),
    createdAt: iso(r.created_at)!,
  };
}

async function insertKey(tx: SqlExecutor, projectId: string): Promise<string> {
  const key = generateApiKey();
  await tx.query('INSERT INTO api_keys (project_id, key_hash, key_prefix) VALUES ($1, $2, $3)', [projectId, hashApiKey(key), keyDisplayPrefix(key)]);
  return key;
}

const notifyChanged = (tx: SqlExecutor, projectId: string) => tx.query('SELECT pg_notify($1, $2)', [PROJECT_CHANGED_CHANNEL, projectId]);

export function projectsRepo(store: RelationalStore) {
  return {
    /** Creates a project and its first key; the raw key is returned once and never stored. */
    async create(name: string, rateLimitPerMinute: number): Promise<{ project: Project; apiKey: string }> {
      const { id, apiKey } = await store.transaction(async (tx) => {
        const [row] = await tx.query<{ id: string }>('INSERT INTO projects (name, rate_limit_per_minute) VALUES ($1, $2) RETURNING id', [name, rateLimitPerMinute]);
        return { id: row.id, apiKey: await insertKey(tx, row.id) };
      });
      return { project: (await this.get(id))!, apiKey };
    },

    async list(): Promise<Project[]> {
      return (await store.query<ProjectRow>(`${PROJECT_SELECT} ORDER BY p.created_at, p.id`)).map(toProject);
    },

    async get(id: string): Promise<Project | null> {
      if (!isUuid(id)) return null;
      const [row] = await store.query<ProjectRow>(`${PROJECT_SELECT} WHERE p.id = $1`, [id]);
      return row ? toProject(row) : null;
    },

    /** Revokes the active key and creates its successor in one transaction; returns the new raw key. */
    async revokeKey(projectId: string): Promise<string | null> {
      if (!isUuid(projectId)) return null;
      return store.transaction(async (tx) => {
        const locked = await tx.query('SELECT id FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
        if (locked.length === 0) return null;
        await tx.query('UPDATE api_keys SET revoked_at = now() WHERE project_id = $1 AND revoked_at IS NULL', [projectId]);
        const key = await insertKey(tx, projectId);
        await notifyChanged(tx, projectId);
        return key;
      });
    },

    async setAllowedOrigins(projectId: string, origins: string[]): Promise<boolean> {
      return this.update(projectId, async (tx) => {
        await tx.query('DELETE FROM allowed_origins WHERE project_id = $1', [projectId]);
        for (const o of new Set(origins)) await tx.query('INSERT INTO allowed_origins (project_id, origin) VALUES ($1, $2)', [projectId, o]);
      });
    },

    async setRateLimit(projectId: string, perMinute: number): Promise<boolean> {
      return this.update(projectId, (tx) => tx.query('UPDATE projects SET rate_limit_per_minute = $2 WHERE id = $1', [projectId, perMinute]));
    },

    async setDrainSecret(projectId: string, secret: string | null): Promise<boolean> {
      return this.update(projectId, (tx) => tx.query('UPDATE projects SET drain_secret = $2 WHERE id = $1', [projectId, secret]));
    },

    async update(projectId: string, change: (tx: SqlExecutor) => Promise<unknown>): Promise<boolean> {
      if (!isUuid(projectId)) return false;
      return store.transaction(async (tx) => {
        const locked = await tx.query('SELECT id FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
        if (locked.length === 0) return false;
        await change(tx);
        await notifyChanged(tx, projectId);
        return true;
      });
    },

    /** The active key with this hash, or null (unknown or revoked). */
    async findGrant(keyHash: string): Promise<KeyGrant | null> {
      const [row] = await store.query<{
        key_id: string;
        key_hash: string;
        project_id: string;
        rate_limit_per_minute: number;
        drain_secret: string | null;
        origins: string[] | null;
        policy: unknown;
        hash_salt: string | null;
      }>(
        `SELECT k.id AS key_id, k.key_hash, p.id AS project_id, p.rate_limit_per_minute, p.drain_secret,
                COALESCE((SELECT array_agg(o.origin) FROM allowed_origins o WHERE o.project_id = p.id), '{}') AS origins,
                d.policy, d.hash_salt
           FROM api_keys k JOIN projects p ON p.id = k.project_id
           LEFT JOIN data_policies d ON d.project_id = p.id
          WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
        [keyHash],
      );
      if (!row) return null;
      return {
        keyId: row.key_id,
        keyHash: row.key_hash,
        projectId: row.project_id,
        rateLimitPerMinute: row.rate_limit_per_minute,
        allowedOrigins: row.origins ?? [],
        drainSecret: row.drain_secret,
        dataPolicy: row.policy ?? {},
        hashSalt: row.hash_salt,
      };
    },
  };
}

export type ProjectsRepo = ReturnType<typeof projectsRepo>;
