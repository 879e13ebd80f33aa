import { createHash } from 'node:crypto';
import type { RelationalStore, SqlExecutor } from './relational-store.ts';
import { isUuid } from './projects-repo.ts';

// Dashboard users, their sessions, project membership, setup codes and trusted devices.
// Session tokens, setup codes and device tokens are stored only as SHA-256 hashes (like API
// keys); the raw values live in the browser's cookies or the operator's terminal. Password
// hashes are opaque strings made by the caller.

/** owner: everything; member: the projects they belong to; viewer: reads only, of those projects. */
export type Role = 'owner' | 'member' | 'viewer';

export interface User {
  id: string;
  username: string;
  isOwner: boolean;
  role: Role;
  disabled: boolean;
  createdAt: string;
}

export interface SessionView {
  user: User;
  csrfToken: string;
  expiresAt: string;
}

interface UserRow {
  id: string;
  username: string;
  is_owner: boolean;
  role: 'member' | 'viewer';
  disabled_at: Date | string | null;
  created_at: Date | string;
}

const USER_COLUMNS = 'id, username, is_owner, role, disabled_at, created_at';
const U_COLUMNS = 'u.id, u.username, u.is_owner, u.role, u.disabled_at, u.created_at';

const toUser = (r: UserRow): User => ({
  id: r.id,
  username: r.username,
  isOwner: r.is_owner,
  role: r.is_owner ? 'owner' : r.role,
  disabled: r.disabled_at !== null,
  createdAt: new Date(r.created_at).toISOString(),
});
const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** When sessions end: `idleMs` after the last request, and in any case at the expiry set at login. */
export interface SessionLimits {
  idleMs: number;
}

/** A session's last_seen_at is written at most this often (not on every request). */
const TOUCH_EVERY_MS = 60_000;
const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';

export function usersRepo(store: RelationalStore) {
  return {
    async count(): Promise<number> {
      const [row] = await store.query<{ n: string | number }>('SELECT count(*) AS n FROM users');
      return Number(row.n);
    },

    async ownerExists(): Promise<boolean> {
      return (await store.query('SELECT 1 FROM users WHERE is_owner')).length > 0;
    },

    /** Keeps a setup code's hash until `expiresAt`. It replaces every earlier one: only the newest code (of this start, or of the replica started last) is valid. */
    async addSetupCode(code: string, expiresAt: Date): Promise<void> {
      await store.transaction(async (tx) => {
        await tx.query('DELETE FROM setup_codes');
        await tx.query('INSERT INTO setup_codes (code_hash, expires_at) VALUES ($1, $2)', [tokenHash(code), expiresAt]);
      });
    },

    async setupCodeValid(code: string): Promise<boolean> {
      return (await store.query('SELECT 1 FROM setup_codes WHERE code_hash = $1 AND expires_at > now()', [tokenHash(code)])).length > 0;
    },

    /**
     * The first account, and the only owner, in one transaction with the setup codes: a valid
     * code (or `code` null when the caller checked the operator token) is required, and every
     * code ends with it. Null when an owner exists already (a lost race included) or the code
     * is not (or no longer) valid.
     */
    async createOwner(username: string, passwordHash: string, code: string | null): Promise<User | null> {
      try {
        return await store.transaction(async (tx) => {
          // One claim at a time: two racing claims would otherwise each lock their own code
          // and then wait for each other's.
          await tx.query('SELECT pg_advisory_xact_lock(7405002)');
          if (code !== null && (await tx.query('DELETE FROM setup_codes WHERE code_hash = $1 AND expires_at > now() RETURNING 1', [tokenHash(code)])).length === 0)
            return null;
          const [row] = await tx.query<UserRow>(
            `INSERT INTO users (username, password_hash, is_owner)
             SELECT $1, $2, true WHERE NOT EXISTS (SELECT 1 FROM users)
             RETURNING ${USER_COLUMNS}`,
            [username, passwordHash],
          );
          if (row) await tx.query('DELETE FROM setup_codes');
          return row ? toUser(row) : null;
        });
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
    },

    /** A further (non-owner) account; null when the username is taken. */
    async create(username: string, passwordHash: string, role: 'member' | 'viewer' = 'member'): Promise<User | null> {
      try {
        const [row] = await store.query<UserRow>(`INSERT INTO users (username, password_hash, role) VALUES ($1, $2, $3) RETURNING ${USER_COLUMNS}`, [
          username,
          passwordHash,
          role,
        ]);
        return toUser(row);
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
    },

    async list(): Promise<User[]> {
      return (await store.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users ORDER BY created_at, username`)).map(toUser);
    },

    async get(id: string): Promise<User | null> {
      if (!isUuid(id)) return null;
      const [row] = await store.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
      return row ? toUser(row) : null;
    },

    async findByUsername(username: string): Promise<(User & { passwordHash: string }) | null> {
      const [row] = await store.query<UserRow & { password_hash: string }>(`SELECT ${USER_COLUMNS}, password_hash FROM users WHERE username = $1`, [username]);
      return row ? { ...toUser(row), passwordHash: row.password_hash } : null;
    },

    async passwordHashOf(userId: string): Promise<string | null> {
      const [row] = await store.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [userId]);
      return row?.password_hash ?? null;
    },

    /** A new password hash; with `endSessions`, every session and trusted device of the user ends too. */
    async setPasswordHash(userId: string, passwordHash: string, endSessions: boolean): Promise<void> {
      await store.transaction(async (tx) => {
        await tx.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
        if (endSessions) await endAllOf(tx, userId);
      });
    },

    /** Disabling ends every session and trusted device of the user; the owner cannot be disabled. */
    async setDisabled(userId: string, disabled: boolean): Promise<User | null> {
      if (!isUuid(userId)) return null;
      return store.transaction(async (tx) => {
        const [row] = await tx.query<UserRow>(
          `UPDATE users SET disabled_at = CASE WHEN $2::boolean THEN coalesce(disabled_at, now()) END WHERE id = $1 AND NOT is_owner RETURNING ${USER_COLUMNS}`,
          [userId, disabled],
        );
        if (row && disabled) await endAllOf(tx, userId);
        return row ? toUser(row) : null;
      });
    },

    async setRole(userId: string, role: 'member' | 'viewer'): Promise<User | null> {
      if (!isUuid(userId)) return null;
      const [row] = await store.query<UserRow>(`UPDATE users SET role = $2 WHERE id = $1 AND NOT is_owner RETURNING ${USER_COLUMNS}`, [userId, role]);
      return row ? toUser(row) : null;
    },

    async createSession(userId: string, token: string, csrfToken: string, expiresAt: Date): Promise<void> {
      await store.query('INSERT INTO sessions (token_hash, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, $4)', [tokenHash(token), userId, csrfToken, expiresAt]);
    },

    /**
     * The live session for a raw token, or null: unknown, past its expiry, idle for longer
     * than limits.idleMs, or its user disabled. A live session is marked seen (at most once a minute).
     */
    async findSession(token: string, limits: SessionLimits): Promise<SessionView | null> {
      const hash = tokenHash(token);
      const [row] = await store.query<UserRow & { csrf_token: string; expires_at: Date | string; stale: boolean }>(
        `SELECT ${U_COLUMNS}, s.csrf_token, s.expires_at, s.last_seen_at < now() - $3::float8 * interval '1 millisecond' AS stale
           FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.token_hash = $1 AND s.expires_at > now() AND s.last_seen_at > now() - $2::float8 * interval '1 millisecond' AND u.disabled_at IS NULL`,
        [hash, limits.idleMs, TOUCH_EVERY_MS],
      );
      if (!row) return null;
      if (row.stale) await store.query('UPDATE sessions SET last_seen_at = now() WHERE token_hash = $1', [hash]);
      return { user: toUser(row), csrfToken: row.csrf_token, expiresAt: new Date(row.expires_at).toISOString() };
    },

    async deleteSession(token: string): Promise<void> {
      await store.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash(token)]);
    },

    /** Drops sessions past their expiry or idle limit, expired trusted devices and setup codes. */
    async pruneExpired(limits: SessionLimits): Promise<void> {
      await store.query("DELETE FROM sessions WHERE expires_at <= now() OR last_seen_at <= now() - $1::float8 * interval '1 millisecond'", [limits.idleMs]);
      await store.query('DELETE FROM login_devices WHERE expires_at <= now()');
      await store.query('DELETE FROM setup_codes WHERE expires_at <= now()');
    },

    /** Remembers a browser that logged in as this user (the device cookie's token, hashed). */
    async addDevice(userId: string, token: string, expiresAt: Date): Promise<void> {
      await store.query('INSERT INTO login_devices (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [tokenHash(token), userId, expiresAt]);
    },

    /** Whether the token is a live trusted device of the user with this username. */
    async isDeviceOf(token: string, username: string): Promise<boolean> {
      const rows = await store.query(
        'SELECT 1 FROM login_devices d JOIN users u ON u.id = d.user_id WHERE d.token_hash = $1 AND u.username = $2 AND d.expires_at > now()',
        [tokenHash(token), username],
      );
      return rows.length > 0;
    },

    /** addDevice, or a new expiry for a token remembered already (a place a user logs in from again). */
    async rememberDevice(userId: string, token: string, expiresAt: Date): Promise<void> {
      await store.query(
        'INSERT INTO login_devices (token_hash, user_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT (token_hash) DO UPDATE SET user_id = EXCLUDED.user_id, expires_at = EXCLUDED.expires_at',
        [tokenHash(token), userId, expiresAt],
      );
    },

    async deleteDevice(token: string): Promise<void> {
      await store.query('DELETE FROM login_devices WHERE token_hash = $1', [tokenHash(token)]);
    },

    /** Idempotent. False when the project or the user does not exist. */
    async addMember(projectId: string, userId: string): Promise<boolean> {
      if (!isUuid(projectId) || !isUuid(userId)) return false;
      const rows = await store.query(
        `INSERT INTO project_members (project_id, user_id)
         SELECT p.id, u.id FROM projects p, users u WHERE p.id = $1 AND u.id = $2
         ON CONFLICT DO NOTHING RETURNING 1`,
        [projectId, userId],
      );
      if (rows.length > 0) return true;
      return (await store.query('SELECT 1 FROM project_members WHERE project_id = $1 AND user_id = $2', [projectId, userId])).length > 0;
    },

    async removeMember(projectId: string, userId: string): Promise<void> {
      if (!isUuid(projectId) || !isUuid(userId)) return;
      await store.query('DELETE FROM project_members WHERE project_id = $1 AND user_id = $2', [projectId, userId]);
    },

    async projectIdsOf(userId: string): Promise<string[]> {
      return (await store.query<{ project_id: string }>('SELECT project_id FROM project_members WHERE user_id = $1', [userId])).map((r) => r.project_id);
    },

    async membersOf(projectId: string): Promise<User[]> {
      if (!isUuid(projectId)) return [];
      return (
        await store.query<UserRow>(
          `SELECT ${U_COLUMNS} FROM project_members m JOIN users u ON u.id = m.user_id
            WHERE m.project_id = $1 ORDER BY u.username`,
          [projectId],
        )
      ).map(toUser);
    },
  };
}

export type UsersRepo = ReturnType<typeof usersRepo>;

/** Ends every session and trusted device of a user. */
async function endAllOf(tx: SqlExecutor, userId: string): Promise<void> {
  await tx.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
  await tx.query('DELETE FROM login_devices WHERE user_id = $1', [userId]);
}
