import { z, type AnyZodObject } from 'zod';
import { ruleInput, RULE_TYPES } from '@devtrail/alerting';
import { notFound } from '@devtrail/http';
import { json, openApiPath, type ApiDocs } from '@devtrail/http/api-docs';
import { apiAnswers } from './access-docs.ts';
import { ALERT_PATHS, notificationsQuery, ruleIdParam } from './alert-routes.ts';
import { fingerprintParam } from './api-schemas.ts';
import { SOURCE_MAP_PATHS } from './source-map-routes.ts';
import { sourceMapDelete, sourceMapList, sourceMapUpload } from './source-map-schemas.ts';
import { TRIAGE_PATHS } from './triage-routes.ts';
import { mergeBody, symbolicatedQuery, triageBody, triageListQuery, TRIAGE_ACTIONS } from './triage-schemas.ts';
import { MERGE_REFUSALS } from './merge-answers.ts';

// The OpenAPI documentation of triage-routes.ts, alert-routes.ts and source-map-routes.ts
// (docs/alerts.md, docs/source-maps.md).

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
  const destination = z.object({
    id: z.string().uuid(),
    type: z.enum(['webhook', 'slack']),
    url: z.string().openapi({ description: 'Where it points, shortened: the URL is a credential.' }),
    has_signing_secret: z.boolean(),
    signing_secret: z.string().optional().openapi({ description: 'Only in the answer that created the destination.' }),
  });
  const rule = r.register(
    'AlertRule',
    z.object({
      id: z.string().uuid(),
      name: z.string(),
      type: z.enum(RULE_TYPES),
      params: z.record(z.unknown()),
      enabled: z.boolean(),
      destinations: z.array(destination),
      created_at: z.string().datetime(),
      updated_at: z.string().datetime(),
    }),
  );
  const notification = r.register(
    'AlertNotification',
    z.object({
      id: z.string().uuid().openapi({ description: 'The delivery id (X-Devtrail-Delivery).' }),
      rule_id: z.string().uuid(),
      rule_name: z.string(),
      destination_id: z.string().uuid(),
      destination_type: z.enum(['webhook', 'slack']),
      dedup_key: z.string(),
      status: z.enum(['pending', 'delivered', 'failed']),
      title: z.string(),
      test: z.boolean(),
      created_at: z.string().datetime(),
      delivered_at: z.string().datetime().nullable(),
      next_attempt_at: z.string().datetime().nullable(),
      last_error: z.string().nullable(),
      attempts: z.array(
        z.object({
          attempt: z.number().int(),
          started_at: z.string().datetime(),
          latency_ms: z.number().int(),
          status_code: z.number().int().nullable(),
          outcome: z.string().openapi({ description: 'ok, http_error, timeout, network, refused, invalid_url' }),
          error: z.string().nullable(),
        }),
      ),
    }),
  );
  const sourceMap = r.register(
    'SourceMap',
    z.object({
      id: z.string().uuid(),
      release: z.string(),
      url: z.string(),
      debug_id: z.string().nullable(),
      bytes: z.number().int(),
      stored_bytes: z.number().int(),
      created_at: z.string().datetime(),
    }),
  );
  const frame = z.object({
    raw: z.string(),
    minified: z.object({ function: z.string(), url: z.string(), line: z.number().int(), column: z.number().int() }).nullable(),
    original: z
      .object({
        file: z.string(),
        line: z.number().int(),
        column: z.number().int(),
        function: z.string(),
        context: z.object({ start: z.number().int(), lines: z.array(z.string()) }).nullable(),
      })
      .nullable(),
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
      keyToo?: boolean;
      extra?: Record<number, ReturnType<ApiDocs['errorResponse']>>;
    },
  ) =>
    r.registerPath({
      method,
      path: openApiPath(p),
      tags: [tag],
      summary,
      security: o.keyToo ? [{ operatorToken: [] }, { apiKey: [] }] : [{ operatorToken: [] }],
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
  path('get', SOURCE_MAP_PATHS.symbolicated, 'source maps', "A group's latest (or one) occurrence's stack at its original source", {
    params: fingerprintParam,
    query: symbolicatedQuery,
    ok: z.object({ event_id: z.string().uuid(), release: z.string(), maps_found: z.number().int(), frames: z.array(frame) }),
    notFound: notFound('Error event').message,
  });
  path('get', ALERT_PATHS.rules, 'alerts', 'Alert rules', { ok: z.object({ rules: z.array(rule) }) });
  path('post', ALERT_PATHS.rules, 'alerts', 'Create an alert rule (webhook signing secrets appear in this answer only)', {
    body: ruleInput,
    ok: z.object({ rule }),
    status: 201,
  });
  path('get', ALERT_PATHS.rule, 'alerts', 'Show an alert rule', { params: ruleIdParam, ok: z.object({ rule }), notFound: notFound('Alert rule').message });
  path('put', ALERT_PATHS.rule, 'alerts', 'Replace an alert rule ({ id } keeps a destination)', {
    params: ruleIdParam,
    body: ruleInput,
    ok: z.object({ rule }),
    notFound: notFound('Alert rule').message,
  });
  path('delete', ALERT_PATHS.rule, 'alerts', 'Delete an alert rule', { params: ruleIdParam, status: 204, notFound: notFound('Alert rule').message });
  path('post', ALERT_PATHS.testRule, 'alerts', 'Send a test notification to each destination now', {
    params: ruleIdParam,
    ok: z.object({ notifications: z.array(notification) }),
    notFound: notFound('Alert rule').message,
  });
  path('get', ALERT_PATHS.notifications, 'alerts', 'Notifications, newest first, with every delivery attempt', {
    query: notificationsQuery,
    ok: z.object({ notifications: z.array(notification) }),
  });
  path('post', SOURCE_MAP_PATHS.maps, 'source maps', 'Upload a source map for a release and file URL (the project key may upload)', {
    body: sourceMapUpload,
    ok: z.object({ source_map: sourceMap }),
    status: 201,
    keyToo: true,
  });
  path('get', SOURCE_MAP_PATHS.maps, 'source maps', 'List uploaded source maps', {
    query: sourceMapList,
    ok: z.object({ source_maps: z.array(sourceMap) }),
    keyToo: true,
  });
  path('delete', SOURCE_MAP_PATHS.maps, 'source maps', 'Delete a release’s source maps (or one file’s)', {
    query: sourceMapDelete,
    ok: z.object({ deleted: z.number().int() }),
    keyToo: true,
  });
  return {
    name: 'triage, alerts, source maps',
    description: 'Act on errors: triage states, alert rules and deliveries, source maps (docs/alerts.md, docs/source-maps.md).',
  };
}
