import type { FastifyInstance } from 'fastify';
import { createProjectBody, drainSecretBody, originsBody, projectIdParam, rateLimitBody } from './api-schemas.ts';
import { normaliseOriginEntry } from '@devtrail/access';
import { ERRORS, httpError, notFound } from '@devtrail/http';
import type { ProjectsRepo } from '@devtrail/relational-store';
import { projectJson } from './project-json.ts';

// /api/admin: projects, keys, origins, rate limits, drain secrets. Raw keys appear in
// exactly two answers (create, revoke), once; they are never stored.
// admin-docs.ts documents each path.

export const ADMIN_PATHS = {
  projects: '/api/admin/projects',
  project: '/api/admin/projects/:id',
  revokeKey: '/api/admin/projects/:id/revoke-key',
  allowedOrigins: '/api/admin/projects/:id/allowed-origins',
  rateLimit: '/api/admin/projects/:id/rate-limit',
  drainSecret: '/api/admin/projects/:id/drain-secret',
};

/** 400 for an allowed-origins entry that is neither a host, a *.host nor an http(s) origin. */

export function registerAdminRoutes(app: FastifyInstance, repo: ProjectsRepo, defaultRateLimit: number): void {
  const allowed = async (principalCan: (id: string) => Promise<boolean>, id: string) => {
    if (!(await principalCan(id))) throw notFound('Project');
  };
  const load = async (id: string) => {
    const p = await repo.get(id);
    if (!p) throw notFound('Project');
    return projectJson(p);
  };

  app.post(ADMIN_PATHS.projects, async (request, reply) => {
    if (!request.principal!.canCreateProjects) throw httpError(403, ERRORS.cannotCreateProjects);
    const body = createProjectBody.parse(request.body);
    const { project, apiKey } = await repo.create(body.name, body.rate_limit_per_minute ?? defaultRateLimit);
    await request.principal!.onProjectCreated?.(project.id);
    return reply.code(201).send({ project: projectJson(project), api_key: apiKey });
  });

  app.get(ADMIN_PATHS.projects, async (request) => {
    const all = await repo.list();
    if (request.principal!.kind === 'operator') return { projects: all.map(projectJson) }; // sees every project: no per-project check
    const visible = [];
    for (const p of all) if (await request.principal!.canAccess(p.id)) visible.push(projectJson(p));
    return { projects: visible };
  });

  app.get(ADMIN_PATHS.project, async (request) => {
    const { id } = projectIdParam.parse(request.params);
    await allowed(request.principal!.canAccess, id);
    return { project: await load(id) };
  });

  app.post(ADMIN_PATHS.revokeKey, async (request) => {
    const { id } = projectIdParam.parse(request.params);
    await allowed(request.principal!.canAccess, id);
    const key = await repo.revokeKey(id);
    if (!key) throw notFound('Project');
    return { project: await load(id), api_key: key };
  });

  app.put(ADMIN_PATHS.allowedOrigins, async (request) => {
    const { id } = projectIdParam.parse(request.params);
    await allowed(request.principal!.canAccess, id);
    const { origins } = originsBody.parse(request.body); // each entry checked by the schema (contract origins.ts)
    if (!(await repo.setAllowedOrigins(id, origins.map(normaliseOriginEntry)))) throw notFound('Project');
    return { project: await load(id) };
  });

  app.put(ADMIN_PATHS.rateLimit, async (request) => {
    const { id } = projectIdParam.parse(request.params);
    await allowed(request.principal!.canAccess, id);
    const { rate_limit_per_minute } = rateLimitBody.parse(request.body);
    if (!(await repo.setRateLimit(id, rate_limit_per_minute))) throw notFound('Project');
    return { project: await load(id) };
  });

  app.put(ADMIN_PATHS.drainSecret, async (request) => {
    const { id } = projectIdParam.parse(request.params);
    await allowed(request.principal!.canAccess, id);
    const { secret } = drainSecretBody.parse(request.body);
    if (!(await repo.setDrainSecret(id, secret))) throw notFound('Project');
    return { project: await load(id) };
  });
}
