import { z, type AnyZodObject } from 'zod';
import { notFound } from '@devtrail/http';
import { json, openApiPath, type ApiDocs } from '@devtrail/http/api-docs';
import { apiAnswers } from './access-docs.ts';
import { fingerprintParam } from './api-schemas.ts';
import { TRIAGE_PATHS } from './triage-routes.ts';
import { mergeBody, triageBody, triageListQuery, TRIAGE_ACTIONS } from './triage-schemas.ts';
import { MERGE_REFUSALS } from './merge-answers.ts';

// The OpenAPI documentation of triage-routes.ts (docs/alerts.md).

export function documentActOnErrors(docs: ApiDocs) {
  const r = docs.registry;
  const { idParam, errors, projectNotFound } = apiAnswers(docs);
  const state = r.register(
    'GroupState',
    z.object({
      status: z.enum(['unresolved', 'resolved', 'ignored']),
      substatus: z.string().openapi({ description: 'new, ongoing, regressed, escalating, resolved, resolved_in_release, ignored_forever, ignored_until, ignored_count' }),
      resolved_at: z.string().datetime().nullable(),
      resolved_in_release: z.string().nullable(),
      ignore_until: z.string().datetime().nullable(),
      ignore_events_left: z.number().int().nullable(),
      regressed_at: z.string().datetime().nullable(),
      regressions: z.number().int(),
      first_release: z.string(),
      last_release: z.string(),
      updated_at: z.string().datetime().nullable(),
    }),
  );
  const history = z.object({
    at: z.string().datetime(),
    actor: z.object({ kind: z.enum(['operator', 'user', 'system']), id: z.string().nullable(), name: z.string() }),
    action: z.string().openapi({ description: `${TRIAGE_ACTIONS.join(', ')}, or the consumer's first_seen, regression, ignore_expired, ignore_count_reached` }),
    from_status: z.string().nullable(),
    to_status: z.string(),
    details: z.record(z.unknown()),
  });
  const group = z.object({
    fingerprint: z.string(),
    count: z.number().int(),
    first_seen: z.string().datetime(),
    last_seen: z.string().datetime(),
    max_severity: z.string(),
    latest: z.record(z.unknown()),
    state,
  });

  const path = (
    method: 'get' | 'post' | 'put' | 'delete',
    p: string,
    tag: string,
    summary: string,
    o: {
      params?: AnyZodObject;
      query?: AnyZodObject;
      body?: z.ZodTypeAny;
      ok?: z.ZodTypeAny;
      status?: number;
      notFound?: string;
      extra?: Record<number, ReturnType<ApiDocs['errorResponse']>>;
    },
  ) =>
    r.registerPath({
      method,
      path: openApiPath(p),
      tags: [tag],
      summary,
      security: [{ operatorToken: [] }],
      request: {
        params: o.params ? idParam.merge(o.params) : idParam,
        ...(o.query ? { query: o.query } : {}),
        ...(o.body ? { body: { required: true, ...json(o.body) } } : {}),
      },
      responses: {
        [o.status ?? 200]: o.ok ? { description: 'OK', ...json(o.ok) } : { description: 'Done' },
        ...errors(projectNotFound),
        ...(o.notFound ? { 404: docs.errorResponse('Unknown project, or nothing found.', o.notFound) } : {}),
        ...o.extra,
      },
    });

  path('get', TRIAGE_PATHS.groups, 'triage', 'Error groups with their triage state, filtered by it', {
    query: triageListQuery,
    ok: z.object({ groups: z.array(group) }),
  });
  path('post', TRIAGE_PATHS.groups, 'triage', 'Resolve, resolve in a release, unresolve or ignore one or many groups', {
    body: triageBody,
    ok: z.object({ groups: z.array(z.object({ fingerprint: z.string(), state })) }),
  });
  path('get', TRIAGE_PATHS.group, 'triage', "A group's state, history, first and last release, counts by release and environment", {
    params: fingerprintParam,
    ok: z.object({
      fingerprint: z.string(),
      state,
      first_release: z.string(),
      last_release: z.string(),
      by_release: z.array(z.object({ release: z.string(), count: z.number().int() })),
      by_environment: z.array(z.object({ environment: z.string(), count: z.number().int() })),
      history: z.array(history),
    }),
    notFound: notFound('Error group').message,
  });
  path('post', TRIAGE_PATHS.merge, 'triage', "Merge this group into another: its events, stored and to come, and its history become the target's", {
    params: fingerprintParam,
    body: mergeBody,
    ok: z.object({ fingerprint: z.string().openapi({ description: 'The group it was merged into (the end of any chain).' }), merged: z.string() }),
    extra: { 409: docs.errorResponse('The groups are one already, this one was merged before, or the project has too many merges.', MERGE_REFUSALS.already_merged) },
  });
  return {
    name: 'triage',
    description: 'Act on errors: triage states and merges (docs/alerts.md).',
  };
}
