import type { FastifyRequest } from 'fastify';
import { safeEqual } from '@devtrail/access';
import { httpError } from '@devtrail/http';
import type { SessionView, User } from '@devtrail/relational-store';
import { CSRF_HEADER, CsrfError, csrfMatches, isMutating } from './csrf.ts';
import type { Sessions } from './sessions.ts';

// The onRequest checks of the /auth routes, run before a body is even parsed.

export const userJson = (u: User) => ({ id: u.id, username: u.username, is_owner: u.isOwner, role: u.role, disabled: u.disabled, created_at: u.createdAt });

export function authGuards(sessions: Sessions) {
  const live = new WeakMap<FastifyRequest, SessionView>();
  return {
    /** A signed-in user (the owner only, when asked); mutating requests need the session's CSRF token. */
    signedIn:
      (ownerOnly = false) =>
      async (request: FastifyRequest) => {
        const s = await sessions.of(request);
        if (!s) throw httpError(401, 'Not logged in');
        if (isMutating(request.method) && !csrfMatches(s.csrfToken, request)) throw new CsrfError();
        if (ownerOnly && !s.user.isOwner) throw httpError(403, 'Only the owner may do this');
        live.set(request, s);
      },
    /** The session signedIn found. */
    session: (request: FastifyRequest) => live.get(request)!,
    /** Before login: the X-CSRF-Token header must equal the pre-session cookie (double submit). */
    preSessionCsrf: async (request: FastifyRequest) => {
      const pre = sessions.cookies.read(request, 'preSession');
      const given = request.headers[CSRF_HEADER];
      if (!pre || typeof given !== 'string' || !safeEqual(given, pre)) throw new CsrfError();
    },
  };
}

export type AuthGuards = ReturnType<typeof authGuards>;
