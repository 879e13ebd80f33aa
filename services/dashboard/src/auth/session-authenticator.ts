import type { FastifyRequest } from 'fastify';
import type { SessionView, User, UsersRepo } from '@devtrail/relational-store';
import type { Authenticator, Principal } from '../api/access.ts';
import { CsrfError, csrfMatches, isMutating } from './csrf.ts';
import { readCookie, SESSION_COOKIE } from './session-cookie.ts';

// Dashboard sessions as a way into the admin and read APIs, beside the operator token.
// The owner sees every project; any other user only the projects they are a member of.

/** The live session behind the request's cookie, or null. */
export async function sessionOf(users: UsersRepo, request: FastifyRequest): Promise<SessionView | null> {
  const token = readCookie(request, SESSION_COOKIE);
  return token ? users.findSession(token) : null;
}

export function userPrincipal(users: UsersRepo, user: User): Principal {
  let memberOf: Set<string> | undefined;
  return {
    kind: 'user',
    userId: user.id,
    canCreateProjects: true,
    async canAccess(projectId) {
      if (user.isOwner) return true;
      memberOf ??= new Set(await users.projectIdsOf(user.id));
      return memberOf.has(projectId);
    },
    async onProjectCreated(projectId) {
      await users.addMember(projectId, user.id);
      memberOf?.add(projectId);
    },
  };
}

/** Recognises a session cookie; a mutating request without the session's CSRF token is refused (403). */
export function sessionAuthenticator(users: UsersRepo): Authenticator {
  return async (request) => {
    const session = await sessionOf(users, request);
    if (!session) return null;
    if (isMutating(request.method) && !csrfMatches(session.csrfToken, request)) throw new CsrfError();
    return userPrincipal(users, session.user);
  };
}
