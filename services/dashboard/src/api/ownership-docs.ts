import { z, type AnyZodObject } from 'zod';
import { MAX_COMMENTS_PER_GROUP } from '@devtrail/relational-store';
import { json, openApiPath, type ApiDocs, type ResponseConfig } from '@devtrail/http/api-docs';
import { apiAnswers } from './access-docs.ts';
import { fingerprintParam } from './api-schemas.ts';
import { OWNERSHIP_PATHS } from './ownership-routes.ts';
import { assigneeBody, commentBody } from './ownership-schemas.ts';

// The OpenAPI documentation of ownership-routes.ts (docs/alerts.md, "Owning an issue").

export function documentOwnership(docs: ApiDocs) {
  const r = docs.registry;
  const { idParam, errors, projectNotFound } = apiAnswers(docs);
  const actor = z.object({ kind: z.enum(['operator', 'user', 'system']), id: z.string().nullable(), name: z.string() });
  const person = z.object({ id: z.string().uuid(), name: z.string() });
  const comment = z.object({ id: z.string(), at: z.string().datetime(), actor, body: z.string() });
  const path = (
    method: 'get' | 'post' | 'put',
    p: string,
    summary: string,
    o: { body?: AnyZodObject; ok: z.ZodTypeAny; status?: number; extra?: Record<number, ResponseConfig> },
  ) =>
    r.registerPath({
      method,
      path: openApiPath(p),
      tags: ['triage'],
      summary,
      security: [{ operatorToken: [] }],
      request: { params: idParam.merge(fingerprintParam), ...(o.body ? { body: { required: true, ...json(o.body) } } : {}) },
      responses: { [o.status ?? 200]: { description: 'OK', ...json(o.ok) }, ...errors(projectNotFound), ...o.extra },
    });
  path('put', OWNERSHIP_PATHS.assignee, 'Assign the group to a member of the project (null: unassign); recorded in its history', {
    body: assigneeBody,
    ok: z.object({ fingerprint: z.string(), assignee: person.nullable() }),
  });
  path('get', OWNERSHIP_PATHS.comments, "The group's comments, newest first (at most 100)", { ok: z.object({ comments: z.array(comment) }) });
  path('post', OWNERSHIP_PATHS.comments, 'Comment on the group (1 to 2,000 characters)', {
    body: commentBody,
    ok: z.object({ comment }),
    status: 201,
    extra: { 409: docs.errorResponse('The group holds its most comments already.', `This group holds ${MAX_COMMENTS_PER_GROUP} comments already.`) },
  });
  path('get', OWNERSHIP_PATHS.similar, 'Open groups of the last 30 days whose in-app frames or stripped message overlap this one: candidates for a merge', {
    ok: z.object({
      fingerprint: z.string(),
      similar: z.array(
        z.object({
          fingerprint: z.string(),
          reason: z.enum(['frames', 'message']),
          overlap: z.number(),
          count: z.number().int(),
          last_seen: z.string().datetime(),
          error_type: z.string(),
          error_message: z.string(),
        }),
      ),
    }),
  });
  return {
    name: 'owning issues',
    description: 'Assignees, comments and similar issues of error groups (docs/alerts.md#owning-an-issue).',
  };
}
