import { createHash } from 'node:crypto';
import type { RelationalStore } from './relational-store.ts';
import { isUuid } from './projects-repo.ts';

// Dashboard users, their sessions, project membership and failed logins. Session
// tokens are stored only as SHA-256 hashes (like API keys); the raw token lives in the
// browser's cookie. Password hashes are opaque strings made by the caller.

export interface User {
  id: string;
  username: string;
  isOwner: boolean;
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
  created_at: Date | string;
}

const toUser = (r: UserRow): User => ({ id: r.id, username: r.username, isOwner: r.is_owner, createdAt: new Date(r.created_at).toISOString() });
const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';

export function usersRepo(store: RelationalStore) {
  return {
    async count(): Promise<number> {
      const [row] = await store.query<{ n: string | number }>('SELECT count(*) AS n FROM users');
      return Number(row.n);
    },

    /** The first account, and the only owner; null when any user exists already (a lost race included). */
    async createOwner(username: string, passwordHash: string): Promise<User | null> {
      try {
        const [row] = await store.query<UserRow>(
          `INSERT INTO users (username, password_hash, is_owner)
           SELECT $1, $2, true WHERE NOT EXISTS (SELECT 1 FROM users)
           RETURNING id, username, is_owner, created_at`,
          [username, passwordHash],
        );
        return row ? toUser(row) : null;
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
    },

    /** A further (non-owner) account; null when the username is taken. */
    async create(username: string, passwordHash: string): Promise<User | null> {
      try {
        const [row] = await store.query<UserRow>('INSERT INTO users (username, password_hash) VALUES ($1, $2) RETURNING id, username, is_owner, created_at', [
          username,
          passwordHash,
        ]);
        return toUser(row);
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
    },

    async list(): Promise<User[]> {
      return (await store.query<UserRow>('SELECT id, username, is_owner, created_at FROM users ORDER BY created_at, username')).map(toUser);
    },

    async findByUsername(username: string): Promise<(User & { passwordHash: string }) | null> {
      const [row] = await store.query<UserRow & { password_hash: string }>('SELECT id, username, is_owner, created_at, password_hash FROM users WHERE username = $1', [
        username,
      ]);
      return row ? { ...toUser(row), passwordHash: row.password_hash } : null;
    },

    async createSession(userId: string, token: string, csrfToken: string, expiresAt: Date): Promise<void> {
      await store.query('INSERT INTO sessions (token_hash, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, $4)', [tokenHash(token), userId, csrfToken, expiresAt]);
    },

    /** The live session for a raw token, or null (unknown or expired). */
    async findSession(token: string): Promise<SessionView | null> {
      const [row] = await store.query<UserRow & { csrf_token: string; expires_at: Date | string }>(
        `SELECT u.id, u.username, u.is_owner, u.created_at, s.csrf_token, s.expires_at
           FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.token_hash = $1 AND s.expires_at > now()`,
        [tokenHash(token)],
      );
      return row ? { user: toUser(row), csrfToken: row.csrf_token, expiresAt: new Date(row.expires_at).toISOString() } : null;
    },

    async deleteSession(token: string): Promise<void> {
      await store.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash(token)]);
    },

    async deleteExpiredSessions(): Promise<void> {
      await store.query('DELETE FROM sessions WHERE expires_at <= now()');
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
          `SELECT u.id, u.username, u.is_owner, u.created_at FROM project_members m JOIN users u ON u.id = m.user_id
            WHERE m.project_id = $1 ORDER BY u.username`,
          [projectId],
        )
      ).map(toUser);
    },

    async recordFailedLogin(username: string, ip: string): Promise<void> {
      await store.query('INSERT INTO login_attempts (username, ip) VALUES ($1, $2)', [username, ip]);
    },

    /** Failed logins since `since`: for this username from this address, and for this username from anywhere. */
    async failedLogins(username: string, ip: string, since: Date): Promise<{ fromIp: number; total: number }> {
      const [row] = await store.query<{ from_ip: string | number; total: string | number }>(
        `SELECT count(*) FILTER (WHERE ip = $2) AS from_ip, count(*) AS total
           FROM login_attempts WHERE username = $1 AND attempted_at > $3`,
        [username, ip, since],
      );
      return { fromIp: Number(row.from_ip), total: Number(row.total) };
    },

    /** Oldest failed login since `since` for this username and address (for Retry-After). */
    async oldestFailedLogin(username: string, ip: string, since: Date): Promise<Date | null> {
      const [row] = await store.query<{ t: Date | string | null }>(
        'SELECT min(attempted_at) AS t FROM login_attempts WHERE username = $1 AND ip = $2 AND attempted_at > $3',
        [username, ip, since],
      );
      return row?.t ? new Date(row.t) : null;
    },

    async clearFailedLogins(username: string, ip: string): Promise<void> {
      await store.query('DELETE FROM login_attempts WHERE username = $1 AND ip = $2', [username, ip]);
    },

    async pruneLoginAttempts(before: Date): Promise<void> {
      await store.query('DELETE FROM login_attempts WHERE attempted_at < $1', [before]);
    },
  };
}

export type UsersRepo = ReturnType<typeof usersRepo>;
