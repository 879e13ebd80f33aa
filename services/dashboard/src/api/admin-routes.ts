import type { FastifyInstance } from 'fastify';
import { isValidOriginEntry, createProjectBody, drainSecretBody, originsBody, projectIdParam, rateLimitBody, httpError, badRequest } from '@devtrail/contract';
import type { ProjectsRepo } from '@devtrail/relational-store';
import { projectJson } from './project-json.ts';

// /api/admin: projects, keys, origins, rate limits, drain secrets. Raw keys appear in
// exactly two answers (create, revoke), once; they are never stored.

export function registerAdminRoutes(app: FastifyInstance, repo: ProjectsRepo, defaultRateLimit: number): void {
  const allowed = async (principalCan: (id: string) => Promise<boolean>, id: string) => {
    if (!(await principalCan(id))) throw httpError(404, 'Project not found');
  };
  const load = async (id: string) => {
    const p = await repo.get(id);
    if (!p) throw httpError(404, 'Project not found');
    return projectJson(p);
  };

  app.post('/api/admin/projects', async (request, reply) => {
    if (!request.principal!.canCreateProjects) throw httpError(403, 'Not allowed to create projects');
    const body = createProjectBody.parse(request.body);
    const { project, apiKey } = await repo.create(body.name, body.rate_limit_per_minute ?? defaultRateLimit);
    await request.principal!.onProjectCreated?.(project.id);
    return reply.code(201).send({ project: projectJson(project), api_key: apiKey });
  });

  app.get('/api/admin/projects', async (request) => {
    const all = await repo.list();
    if (request.principal!.kind === 'operator') return { projects: all.map(projectJson) }; // sees every project: no per-project check
    const visible = [];
    for (const p of all) if (await request.principal!.canAccess(p.id)) visible.push(projectJson(p));
    return { projects: visible };
  });

  app.get('/api/admin/projects/:id', async (request) => {
    const { id } = projectIdParam.parse(request.params);
    await allowed(request.principal!.canAccess, id);
    return { project: await load(id) };
  });

  app.post('/api/admin/projects/:id/revoke-key', async (request) => {
    const { id } = projectIdParam.parse(request.params);
    await allowed(request.principal!.canAccess, id);
    const key = await repo.revokeKey(id);
    if (!key) throw httpError(404, 'Project not found');
    return { project: await load(id), api_key: key };
  });

  app.put('/api/admin/projects/:id/allowed-origins', async (request) => {
    const { id } = projectIdParam.parse(request.params);
    await allowed(request.principal!.canAccess, id);
    const { origins } = originsBody.parse(request.body);
    const bad = origins.findIndex((o) => !isValidOriginEntry(o));
    if (bad >= 0) throw badRequest(`Not a domain or origin: ${origins[bad]}`, 'a host, *.host or an http(s) origin', 'invalid', ['origins', bad]);
    if (
      !(await repo.setAllowedOrigins(
        id,
        origins.map((o) => o.toLowerCase().replace(/\/$/, '')),
      ))
    )
      throw httpError(404, 'Project not found');
    return { project: await load(id) };
  });

  app.put('/api/admin/projects/:id/rate-limit', async (request) => {
    const { id } = projectIdParam.parse(request.params);
    await allowed(request.principal!.canAccess, id);
    const { rate_limit_per_minute } = rateLimitBody.parse(request.body);
    if (!(await repo.setRateLimit(id, rate_limit_per_minute))) throw httpError(404, 'Project not found');
    return { project: await load(id) };
  });

  app.put('/api/admin/projects/:id/drain-secret', async (request) => {
    const { id } = projectIdParam.parse(request.params);
    await allowed(request.principal!.canAccess, id);
    const { secret } = drainSecretBody.parse(request.body);
    if (!(await repo.setDrainSecret(id, secret))) throw httpError(404, 'Project not found');
    return { project: await load(id) };
  });
}
