import { z } from 'zod';
import { API_KEY_PATTERN, normaliseOriginEntry } from '@devtrail/access';
import { badRequestBody, ERRORS, httpError, notFound } from '@devtrail/http';
import { json, sameKeys, type ApiDocs, type ResponseConfig } from '@devtrail/http/api-docs';
import { route, type RouteGroup } from '@devtrail/http/route';
import type { Project, ProjectsRepo } from '@devtrail/relational-store';
import type { FastifyRequest } from 'fastify';
import { createProjectBody, drainSecretBody, originsBody, rateLimitBody, type ProjectJson } from './api-schemas.ts';
import { apiAnswers, OPERATOR, projectParams } from './project-route.ts';

// /api/admin/projects: projects, keys, origins, rate limits, drain secrets. Raw keys appear in
// exactly two answers (create, revoke), once; they are never stored.

export function projectJson(p: Project): ProjectJson {
  return {
    id: p.id,
    name: p.name,
    key_prefix: p.keyPrefix,
    key_created_at: p.keyCreatedAt,
    allowed_origins: p.allowedOrigins,
    rate_limit_per_minute: p.rateLimitPerMinute,
    has_drain_secret: p.hasDrainSecret,
    created_at: p.createdAt,
  };
}

const project = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    key_prefix: z.string().nullable().openapi({ description: 'First characters of the active key ("dt_" + 4 hex), for display.' }),
    key_created_at: z.string().datetime().nullable(),
    allowed_origins: z.array(z.string()).openapi({ description: 'Empty: every origin is allowed.' }),
    rate_limit_per_minute: z.number().int(),
    has_drain_secret: z.boolean(),
    created_at: z.string().datetime(),
  })
  .openapi('Project');
sameKeys<z.infer<typeof project>, ProjectJson>(true);
const projectWithKey = z
  .object({ project, api_key: z.string().regex(API_KEY_PATTERN).openapi({ description: 'The raw key, shown only in this answer.' }) })
  .openapi('ProjectWithKey');
const projectOnly = z.object({ project });

/** An admin route's answers: `ok`, the shared failures (a 404 when it names a project), a viewer's 403 on a write, and `more`. */
const adminAnswers =
  (ok: z.ZodTypeAny, o: { project?: boolean; write?: boolean; status?: number; more?: (docs: ApiDocs) => Record<string, ResponseConfig> } = {}) =>
  (docs: ApiDocs): Record<string, ResponseConfig> => {
    const { errors, projectNotFound } = apiAnswers(docs);
    return {
      [o.status ?? 200]: { description: 'OK', ...json(ok) },
      ...errors(o.project ? projectNotFound : null),
      // Every write: a dashboard viewer's session is refused (access.ts).
      ...(o.write ? { 403: docs.errorResponse('A read-only dashboard session (viewer).', ERRORS.readOnly) } : {}),
      ...o.more?.(docs),
    };
  };

/** The project of :id as its JSON, when the caller may see it; otherwise 404, as for one that does not exist. */
async function visible(repo: ProjectsRepo, request: FastifyRequest, id: string): Promise<ProjectJson> {
  if (!(await request.principal!.canAccess(id))) throw notFound('Project');
  const p = await repo.get(id);
  if (!p) throw notFound('Project');
  return projectJson(p);
}
const allowed = async (request: FastifyRequest, id: string) => {
  if (!(await request.principal!.canAccess(id))) throw notFound('Project');
};

export interface ProjectDeps {
  repo: ProjectsRepo;
  /** RATE_LIMIT_PER_MINUTE: a new project's limit when the body sets none. */
  defaultRateLimit: number;
}

export const PROJECT_ROUTES: RouteGroup<ProjectDeps> = {
  name: 'admin',
  description: 'Projects, keys, origins, limits, drain secrets; operator token.',
  security: OPERATOR,
  routes: [
    route({
      method: 'post',
      path: '/api/admin/projects',
      summary: 'Create a project and its first API key',
      body: createProjectBody,
      notes: { rate_limit_per_minute: 'Requests per minute per key; default RATE_LIMIT_PER_MINUTE (5000).' },
      answers: adminAnswers(projectWithKey, {
        write: true,
        status: 201,
        more: (docs) => ({
          403: docs.errorResponse('The caller may not create projects, or is a read-only dashboard session (viewer).', {
            cannotCreate: ERRORS.cannotCreateProjects,
            readOnly: ERRORS.readOnly,
          }),
        }),
      }),
      async handle(d, { body }, request, reply) {
        if (!request.principal!.canCreateProjects) throw httpError(403, ERRORS.cannotCreateProjects);
        const { project, apiKey } = await d.repo.create(body.name, body.rate_limit_per_minute ?? d.defaultRateLimit);
        await request.principal!.onProjectCreated?.(project.id);
        return reply.code(201).send({ project: projectJson(project), api_key: apiKey });
      },
    }),
    route({
      method: 'get',
      path: '/api/admin/projects',
      summary: 'List projects',
      answers: adminAnswers(z.object({ projects: z.array(project) })),
      async handle(d, _input, request) {
        const all = await d.repo.list();
        if (request.principal!.kind === 'operator') return { projects: all.map(projectJson) }; // sees every project: no per-project check
        const seen = [];
        for (const p of all) if (await request.principal!.canAccess(p.id)) seen.push(projectJson(p));
        return { projects: seen };
      },
    }),
    route({
      method: 'get',
      path: '/api/admin/projects/:id',
      summary: 'Show a project',
      params: projectParams,
      answers: adminAnswers(projectOnly, { project: true }),
      handle: async (d, { params }, request) => ({ project: await visible(d.repo, request, params.id) }),
    }),
    route({
      method: 'post',
      path: '/api/admin/projects/:id/revoke-key',
      summary: 'Revoke the active key and issue a new one (the old key stops working at once)',
      params: projectParams,
      answers: adminAnswers(projectWithKey, { project: true, write: true }),
      async handle(d, { params }, request) {
        await allowed(request, params.id);
        const key = await d.repo.revokeKey(params.id);
        if (!key) throw notFound('Project');
        return { project: await visible(d.repo, request, params.id), api_key: key };
      },
    }),
    route({
      method: 'put',
      path: '/api/admin/projects/:id/allowed-origins',
      summary: 'Replace the allowed origins (empty list: allow all)',
      params: projectParams,
      body: originsBody,
      notes: {
        origins:
          'Each a host ("example.com"), a wildcard host ("*.example.com", subdomains only) or a full origin ("https://app.example.com:8443"). Stored lower-case without a trailing slash.',
      },
      answers: adminAnswers(projectOnly, {
        project: true,
        write: true,
        more: (docs) => ({
          400: {
            description: 'Invalid body, or an entry that is not a domain or origin (zod issues).',
            ...json(docs.validationError, badRequestBody(originsBody.safeParse({ origins: ['http://x/y'] }).error?.issues ?? [])),
          },
        }),
      }),
      async handle(d, { params, body }, request) {
        await allowed(request, params.id);
        // Each entry is checked by the schema (contract origins.ts).
        if (!(await d.repo.setAllowedOrigins(params.id, body.origins.map(normaliseOriginEntry)))) throw notFound('Project');
        return { project: await visible(d.repo, request, params.id) };
      },
    }),
    route({
      method: 'put',
      path: '/api/admin/projects/:id/rate-limit',
      summary: 'Set the per-key rate limit (requests per minute)',
      params: projectParams,
      body: rateLimitBody,
      answers: adminAnswers(projectOnly, { project: true, write: true }),
      async handle(d, { params, body }, request) {
        await allowed(request, params.id);
        if (!(await d.repo.setRateLimit(params.id, body.rate_limit_per_minute))) throw notFound('Project');
        return { project: await visible(d.repo, request, params.id) };
      },
    }),
    route({
      method: 'put',
      path: '/api/admin/projects/:id/drain-secret',
      summary: 'Set (or clear with null) the Vercel drain secret',
      params: projectParams,
      body: drainSecretBody,
      notes: { secret: '8 to 200 characters; null stops signature checks.' },
      answers: adminAnswers(projectOnly, { project: true, write: true }),
      async handle(d, { params, body }, request) {
        await allowed(request, params.id);
        if (!(await d.repo.setDrainSecret(params.id, body.secret))) throw notFound('Project');
        return { project: await visible(d.repo, request, params.id) };
      },
    }),
  ],
};
