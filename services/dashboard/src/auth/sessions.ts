import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionView, User, UsersRepo } from '@devtrail/relational-store';
import { newToken } from './csrf.ts';
import type { DashboardCookies } from './session-cookie.ts';

// Sessions: a random token in the session cookie, stored as a SHA-256 hash. A session ends
// at the first of: logout, `idleTimeoutMs` without a request, `maxAgeMs` after login (the
// cookie expires then too), a password change, or its user being disabled.

export interface SessionSettings {
  idleTimeoutMs: number;
  maxAgeMs: number;
}

export interface Sessions {
  cookies: DashboardCookies;
  /** The live session behind the request's cookie, or null. */
  of(request: FastifyRequest): Promise<SessionView | null>;
  /** A new session for the user (any session the browser held before is ended first). */
  start(request: FastifyRequest, reply: FastifyReply, user: User): Promise<void>;
  end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Drops what has expired (sessions, trusted devices, setup codes). */
  prune(): Promise<void>;
}

export function sessions(users: UsersRepo, cookies: DashboardCookies, settings: SessionSettings): Sessions {
  const limits = { idleMs: settings.idleTimeoutMs };
  return {
    cookies,
    async of(request) {
      const token = cookies.read(request, 'session');
      return token ? users.findSession(token, limits) : null;
    },
    async start(request, reply, user) {
      const old = cookies.read(request, 'session');
      if (old) await users.deleteSession(old); // never keep a token that existed before login
      const token = newToken();
      await users.createSession(user.id, token, newToken(), new Date(Date.now() + settings.maxAgeMs));
      cookies.set(reply, 'session', token, settings.maxAgeMs);
      cookies.clear(reply, 'preSession');
    },
    async end(request, reply) {
      const token = cookies.read(request, 'session');
      if (token) await users.deleteSession(token);
      cookies.clear(reply, 'session');
    },
    prune: () => users.pruneExpired(limits),
  };
}
