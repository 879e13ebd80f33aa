import type { RelationalStore } from './relational-store.ts';
import { ACT_ON_ERRORS_MIGRATIONS } from './migrations-act-on-errors.ts';
import { GROUPING_MIGRATIONS } from './error-groups/migrations-grouping.ts';
import { OWNERSHIP_MIGRATIONS } from './error-groups/migrations-ownership.ts';
import { PROMPT_MIGRATIONS } from './prompts/migrations-prompts.ts';
import { LLM_PRICE_MIGRATIONS } from './llm-prices/migrations-llm-prices.ts';

// Ordered, append-only. Each runs once, in its own transaction, recorded in
// schema_migrations; an advisory lock keeps two starting processes from racing.
// Keep the SQL PostgreSQL-15 compatible (PGlite runs a newer PostgreSQL).
export const MIGRATIONS: Array<{ version: number; name: string; sql: string }> = [
  {
    version: 1,
    name: 'projects, keys, origins',
    sql: `
      CREATE TABLE projects (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        rate_limit_per_minute integer NOT NULL CHECK (rate_limit_per_minute > 0),
        drain_secret text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        key_hash char(64) NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
        key_prefix text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
      -- One usable key per project at a time, enforced by the database.
      CREATE UNIQUE INDEX api_keys_one_active_per_project ON api_keys (project_id) WHERE revoked_at IS NULL;
      CREATE TABLE allowed_origins (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        origin text NOT NULL CHECK (length(origin) BETWEEN 1 AND 253),
        PRIMARY KEY (project_id, origin)
      );
    `,
  },
  {
    version: 2,
    name: 'rate-limit windows',
    sql: `
      CREATE TABLE rate_limit_windows (
        key_id uuid NOT NULL,
        window_start timestamptz NOT NULL,
        used bigint NOT NULL,
        PRIMARY KEY (key_id, window_start)
      );
    `,
  },
  {
    version: 3,
    name: 'dashboard users, sessions, project members, login attempts',
    sql: `
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        username text NOT NULL UNIQUE CHECK (username ~ '^[a-z0-9][a-z0-9._@-]{0,99}$'),
        password_hash text NOT NULL,
        is_owner boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      -- Exactly one owner: the account the first visit creates.
      CREATE UNIQUE INDEX users_one_owner ON users (is_owner) WHERE is_owner;
      CREATE TABLE sessions (
        token_hash char(64) PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        csrf_token text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sessions_user ON sessions (user_id);
      CREATE INDEX sessions_expiry ON sessions (expires_at);
      CREATE TABLE project_members (
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, user_id)
      );
      CREATE INDEX project_members_user ON project_members (user_id);
      CREATE TABLE login_attempts (
        username text NOT NULL,
        ip text NOT NULL,
        attempted_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX login_attempts_lookup ON login_attempts (username, ip, attempted_at);
    `,
  },
  {
    version: 4,
    name: 'idempotency keys: first receive time',
    sql: `
      -- The first time a request with an Idempotency-Key arrived, so its retries reuse it
      -- as "now" (docs/api.md). The key only as a SHA-256 hash; rows pruned after the window.
      CREATE TABLE idempotency_keys (
        project_id uuid NOT NULL,
        key_hash char(64) NOT NULL CHECK (key_hash ~ '^[0-9a-f]{64}$'),
        first_seen timestamptz NOT NULL,
        PRIMARY KEY (project_id, key_hash)
      );
      CREATE INDEX idempotency_keys_first_seen ON idempotency_keys (first_seen);
    `,
  },
  {
    version: 5,
    name: 'data policies, deletions, quota windows',
    sql: `
      -- Per project: retention, scrubbing, quotas, spike guard, sampling (docs/data.md). JSON
      -- validated by the admin API; no row means every default.
      CREATE TABLE data_policies (
        project_id uuid PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
        policy jsonb NOT NULL DEFAULT '{}',
        -- Keys the "hash" scrubbing action (HMAC), so hashed values cannot be looked up in a dictionary.
        hash_salt text NOT NULL DEFAULT gen_random_uuid()::text,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      -- Outlives its project: what a deletion did, and what the consumers must never write again.
      CREATE TABLE data_deletions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL,
        project_name text NOT NULL,
        reason text NOT NULL CHECK (reason IN ('project', 'events', 'retention')),
        filter jsonb NOT NULL DEFAULT '{}',
        requested_by text NOT NULL,
        requested_at timestamptz NOT NULL DEFAULT now(),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'failed')),
        progress jsonb NOT NULL DEFAULT '{}',
        error text,
        lease_until timestamptz,
        finished_at timestamptz
      );
      CREATE INDEX data_deletions_open ON data_deletions (requested_at) WHERE status IN ('pending', 'running');
      CREATE INDEX data_deletions_project ON data_deletions (project_id, requested_at);
      CREATE TABLE deleted_projects (
        project_id uuid PRIMARY KEY,
        deleted_at timestamptz NOT NULL DEFAULT now()
      );
      -- Shared fixed windows of events per project, kind and window length (quotas, spike guard).
      CREATE TABLE quota_windows (
        scope text NOT NULL,
        window_start timestamptz NOT NULL,
        used bigint NOT NULL,
        PRIMARY KEY (scope, window_start)
      );
    `,
  },
  ...ACT_ON_ERRORS_MIGRATIONS,
  {
    version: 9,
    name: 'setup codes, roles, disabled users, idle sessions, login throttle, trusted devices',
    sql: `
      -- The one-time codes that claim a fresh install (hashes; any replica may check one).
      CREATE TABLE setup_codes (
        code_hash char(64) PRIMARY KEY CHECK (code_hash ~ '^[0-9a-f]{64}$'),
        expires_at timestamptz NOT NULL
      );
      ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'viewer'));
      ALTER TABLE users ADD COLUMN disabled_at timestamptz;
      ALTER TABLE sessions ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now();
      -- Login attempts counted per bucket (an address, a username, both, a trusted device):
      -- each attempt is counted before its password is checked (docs/security.md).
      CREATE TABLE login_throttle (
        bucket text PRIMARY KEY CHECK (length(bucket) <= 300),
        failures integer NOT NULL,
        blocked_until timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX login_throttle_updated ON login_throttle (updated_at);
      -- Browsers that logged in as a user before: their attempts skip that user's shared throttle.
      CREATE TABLE login_devices (
        token_hash char(64) PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX login_devices_user ON login_devices (user_id);
      DROP TABLE login_attempts;
    `,
  },
  {
    version: 10,
    name: 'saved log searches',
    sql: `
      CREATE TABLE saved_queries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        query text NOT NULL CHECK (length(query) <= 1000),
        range text CHECK (range IS NULL OR length(range) <= 20),
        created_by uuid REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, name)
      );
    `,
  },
  {
    version: 11,
    name: 'deletions published on the deletions topic',
    sql: `
      -- When the deletion was published on <prefix>deletions (docs/topics.md, "Deletions"); a
      -- deletion is carried out only once published. Deletions made before this step are
      -- published by the next dashboard that starts.
      ALTER TABLE data_deletions ADD COLUMN published_at timestamptz;
      CREATE INDEX data_deletions_unpublished ON data_deletions (requested_at) WHERE published_at IS NULL;
    `,
  },
  {
    version: 12,
    name: 'project upload tokens (source maps)',
    sql: `
      -- Secrets a build pipeline uploads source maps with (docs/source-maps.md): hashes only.
      CREATE TABLE upload_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        token_hash char(64) NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
        token_prefix text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      CREATE INDEX upload_tokens_project ON upload_tokens (project_id) WHERE revoked_at IS NULL;
    `,
  },
  ...GROUPING_MIGRATIONS,
  ...OWNERSHIP_MIGRATIONS,
  {
    version: 40,
    name: 'source map bytes in a file or the row, their size counted',
    sql: `
      ALTER TABLE source_maps ADD COLUMN stored_bytes bigint;
      UPDATE source_maps SET stored_bytes = octet_length(map_gzip);
      ALTER TABLE source_maps ALTER COLUMN stored_bytes SET NOT NULL;
      ALTER TABLE source_maps ALTER COLUMN map_gzip DROP NOT NULL;
      -- gzip already: never compressed again (pglz on incompressible bytes only costs time)
      ALTER TABLE source_maps ALTER COLUMN map_gzip SET STORAGE EXTERNAL;
      ALTER TABLE source_maps ADD COLUMN file_key text CHECK (file_key ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$');
      ALTER TABLE source_maps ADD CONSTRAINT source_maps_bytes_in_one_place CHECK ((map_gzip IS NULL) <> (file_key IS NULL));
    `,
  },
  ...PROMPT_MIGRATIONS,
  ...LLM_PRICE_MIGRATIONS,
];

// Every step, the bookkeeping table's creation included, runs under this transaction-scoped
// lock: two processes starting on an empty database at the same moment would otherwise both
// create schema_migrations, and CREATE TABLE IF NOT EXISTS is not safe against a concurrent
// creation (a duplicate key in pg_type).
const MIGRATION_LOCK = 'SELECT pg_advisory_xact_lock(7405001)';

export async function migrateRelational(store: RelationalStore): Promise<number[]> {
  await store.transaction(async (tx) => {
    await tx.query(MIGRATION_LOCK);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  });
  const applied: number[] = [];
  for (const m of MIGRATIONS) {
    const did = await store.transaction(async (tx) => {
      await tx.query(MIGRATION_LOCK);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (seen.length > 0) return false;
      for (const stmt of splitStatements(m.sql)) await tx.query(stmt);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (did) applied.push(m.version);
  }
  return applied;
}

function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*\n/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
}
