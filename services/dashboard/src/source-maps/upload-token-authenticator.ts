import { hashApiKey, UPLOAD_TOKEN_PATTERN } from '@devtrail/access';
import type { UploadTokensRepo } from '@devtrail/relational-store';
import type { Authenticator } from '../api/access.ts';

// A project's upload token as a way into the routes a build pipeline calls (source maps,
// docs/source-maps.md): it reaches its own project only, and creates nothing. The project's
// API key is not one: it ships in browsers, so anyone may hold it (docs/security.md).
export function uploadTokenAuthenticator(tokens: UploadTokensRepo): Authenticator {
  return async (request) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!m || !UPLOAD_TOKEN_PATTERN.test(m[1])) return null;
    const projectId = await tokens.projectOf(hashApiKey(m[1]));
    if (!projectId) return null;
    return { kind: 'upload-token', canAccess: async (id) => id === projectId, canCreateProjects: false };
  };
}
