import type { RelationalStore } from './relational-store.ts';

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
];

export async function migrateRelational(store: RelationalStore): Promise<number[]> {
  await store.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied: number[] = [];
  for (const m of MIGRATIONS) {
    const did = await store.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(7405001)');
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
