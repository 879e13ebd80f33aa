import { z, type AnyZodObject } from 'zod';
import { API_KEY_PATTERN } from '@devtrail/access';
import { badRequestBody, ERRORS } from '@devtrail/http';
import { createProjectBody, drainSecretBody, originsBody, rateLimitBody, type ProjectJson } from './api-schemas.ts';
import { describeFields, json, openApiPath, sameKeys, type ApiDocs, type ResponseConfig } from '@devtrail/http/api-docs';
import { ADMIN_PATHS } from './admin-routes.ts';
import { apiAnswers } from './access-docs.ts';

// The OpenAPI documentation of admin-routes.ts.

export function documentAdminApi(docs: ApiDocs) {
  const r = docs.registry;
  const { idParam, errors, projectNotFound } = apiAnswers(docs);
  const project = r.register(
    'Project',
    z.object({
      id: z.string().uuid(),
      name: z.string(),
      key_prefix: z.string().nullable().openapi({ description: 'First characters of the active key ("dt_" + 4 hex), for display.' }),
      key_created_at: z.string().datetime().nullable(),
      allowed_origins: z.array(z.string()).openapi({ description: 'Empty: every origin is allowed.' }),
      rate_limit_per_minute: z.number().int(),
      has_drain_secret: z.boolean(),
      created_at: z.string().datetime(),
    }),
  );
  sameKeys<z.infer<typeof project>, ProjectJson>(true);
  const apiKey = z.string().regex(API_KEY_PATTERN).openapi({ description: 'The raw key, shown only in this answer.' });
  const projectWithKey = r.register('ProjectWithKey', z.object({ project, api_key: apiKey }));
  const projectOnly = z.object({ project });

  // Every write: a dashboard viewer's session is refused (access.ts).
  const readOnly = docs.errorResponse('A read-only dashboard session (viewer).', ERRORS.readOnly);
  const admin = (
    method: 'get' | 'post' | 'put',
    path: string,
    summary: string,
    opts: { params?: boolean; body?: AnyZodObject; ok: z.ZodTypeAny; status?: number; extra?: Record<string, ResponseConfig> },
  ) =>
    r.registerPath({
      method,
      path: openApiPath(path),
      tags: ['admin'],
      summary,
      security: [{ operatorToken: [] }],
      request: { ...(opts.params ? { params: idParam } : {}), ...(opts.body ? { body: { required: true, ...json(opts.body) } } : {}) },
      responses: {
        [opts.status ?? 200]: { description: 'OK', ...json(opts.ok) },
        ...errors(opts.params ? projectNotFound : null),
        ...(method === 'get' ? {} : { 403: readOnly }),
        ...opts.extra,
      },
    });

  admin('post', ADMIN_PATHS.projects, 'Create a project and its first API key', {
    body: describeFields(createProjectBody, { rate_limit_per_minute: 'Requests per minute per key; default RATE_LIMIT_PER_MINUTE (5000).' }),
    ok: projectWithKey,
    status: 201,
    extra: {
      403: docs.errorResponse('The caller may not create projects, or is a read-only dashboard session (viewer).', {
        cannotCreate: ERRORS.cannotCreateProjects,
        readOnly: ERRORS.readOnly,
      }),
    },
  });
  admin('get', ADMIN_PATHS.projects, 'List projects', { ok: z.object({ projects: z.array(project) }) });
  admin('get', ADMIN_PATHS.project, 'Show a project', { params: true, ok: projectOnly });
  admin('post', ADMIN_PATHS.revokeKey, 'Revoke the active key and issue a new one (the old key stops working at once)', { params: true, ok: projectWithKey });
  admin('put', ADMIN_PATHS.allowedOrigins, 'Replace the allowed origins (empty list: allow all)', {
    params: true,
    body: describeFields(originsBody, {
      origins:
        'Each a host ("example.com"), a wildcard host ("*.example.com", subdomains only) or a full origin ("https://app.example.com:8443"). Stored lower-case without a trailing slash.',
    }),
    ok: projectOnly,
    extra: {
      400: {
        description: 'Invalid body, or an entry that is not a domain or origin (zod issues).',
        ...json(docs.validationError, badRequestBody(originsBody.safeParse({ origins: ['http://x/y'] }).error?.issues ?? [])),
      },
    },
  });
  admin('put', ADMIN_PATHS.rateLimit, 'Set the per-key rate limit (requests per minute)', { params: true, body: rateLimitBody, ok: projectOnly });
  admin('put', ADMIN_PATHS.drainSecret, 'Set (or clear with null) the Vercel drain secret', {
    params: true,
    body: describeFields(drainSecretBody, { secret: '8 to 200 characters; null stops signature checks.' }),
    ok: projectOnly,
  });
  return { name: 'admin', description: 'Projects, keys, origins, limits, drain secrets; operator token.' };
}
