import type { User, UsersRepo } from '@devtrail/relational-store';
import type { Authenticator, Principal } from '../api/access.ts';
import { CsrfError, csrfMatches, isMutating } from './csrf.ts';
import type { Sessions } from './sessions.ts';

// Dashboard sessions as a way into the admin and read APIs, beside the operator token.
// The owner sees every project; any other user only the projects they are a member of; a
// viewer reads them and changes nothing.

export function userPrincipal(users: UsersRepo, user: User): Principal {
  let memberOf: Set<string> | undefined;
  return {
    kind: 'user',
    userId: user.id,
    canCreateProjects: user.role !== 'viewer',
    administersDeployment: user.isOwner,
    userName: user.username,
    readOnly: user.role === 'viewer',
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
export function sessionAuthenticator(users: UsersRepo, sessions: Sessions): Authenticator {
  return async (request) => {
    const session = await sessions.of(request);
    if (!session) return null;
    if (isMutating(request.method) && !csrfMatches(session.csrfToken, request)) throw new CsrfError();
    return userPrincipal(users, session.user);
  };
}
