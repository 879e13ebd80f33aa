import { API_KEY_PATTERN, hashApiKey } from '@devtrail/access';
import type { ProjectsRepo } from '@devtrail/relational-store';
import type { Authenticator } from './access.ts';

// A project's own API key as a way into the few routes a build pipeline calls (source map
// uploads, docs/source-maps.md): it reaches its own project only, and creates nothing.
export function projectKeyAuthenticator(projects: ProjectsRepo): Authenticator {
  return async (request) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!m || !API_KEY_PATTERN.test(m[1])) return null;
    const grant = await projects.findGrant(hashApiKey(m[1]));
    if (!grant) return null;
    return { kind: 'key', canAccess: async (id) => id === grant.projectId, canCreateProjects: false };
  };
}
