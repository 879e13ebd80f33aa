import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, notFound } from '@devtrail/http';
import { projectIdParam } from './api-schemas.ts';
import { safeEqual } from '@devtrail/access';

// Who may call the admin and read APIs. Today: the operator token from config
// (constant-time compare). The dashboard's user sessions plug in as another Authenticator
// (services/dashboard/src/auth/session-authenticator.ts).

export interface Principal {
  /** 'upload-token': a project's upload token, admitted only where a route scope says so (source maps). */
  kind: 'operator' | 'user' | 'upload-token';
  userId?: string;
  /** Projects this principal may read and administer; 'all' for the operator. */
  canAccess(projectId: string): Promise<boolean>;
  canCreateProjects: boolean;
  /** Changes what holds for the whole deployment (LLM prices): the operator and the owner. */
  administersDeployment?: boolean;
  /** The dashboard user's name, for who did what. */
  userName?: string;
  /** A viewer: every write (any method but GET, HEAD and OPTIONS) is refused with 403. */
  readOnly?: boolean;
  /** Runs after this principal created a project (a dashboard user becomes its member). */
  onProjectCreated?(projectId: string): Promise<void>;
}

export type Authenticator = (request: FastifyRequest) => Promise<Principal | null>;

/** The operator may access every project that exists (an unknown id is a 404, as for anyone). */
export function operatorAuthenticator(token: string | undefined, projectExists: (id: string) => Promise<boolean>): Authenticator {
  return async (request) => {
    if (!token) return null;
    const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!m || !safeEqual(m[1], token)) return null;
    return { kind: 'operator', canAccess: projectExists, canCreateProjects: true, administersDeployment: true };
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** onRequest: the first authenticator that recognises the caller wins (a read-only one only for reads: 403); otherwise 401. */
export function requirePrincipal(authenticators: Authenticator[]) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    for (const auth of authenticators) {
      const p = await auth(request);
      if (p) {
        if (p.readOnly && !SAFE_METHODS.has(request.method)) return reply.code(403).send({ error: ERRORS.readOnly });
        request.principal = p;
        return;
      }
    }
    return reply.code(401).send({ error: ERRORS.noPrincipal });
  };
}

/** The :id of a project route, when the caller may read it; otherwise 404, as for a project that does not exist. */
export async function projectOf(request: FastifyRequest): Promise<string> {
  const { id } = projectIdParam.parse(request.params);
  if (!(await request.principal!.canAccess(id))) throw notFound('Project');
  return id;
}
