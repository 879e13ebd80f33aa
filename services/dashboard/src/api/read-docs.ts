import { z, type AnyZodObject } from 'zod';
import type { ErrorGroup, IngestionRate, LlmUsageSummary, ReleaseHealth, SpanRecord as SpanRecordType, TraceSummary } from '@devtrail/kinds';
import { errorGroupsQuery, traceSearchQuery } from './explore-schemas.ts';
import { LLM_COST_NOTES, SEARCH_NOTE, TRACE_SEARCH_NOTE } from './explore-docs.ts';
import { errorsQuery, fingerprintParam, ingestionQuery, logsQuery, rangeQuery, releaseHealthQuery } from './api-schemas.ts';
import { EVENT_KINDS, severities } from '@devtrail/kinds';
import { notFound } from '@devtrail/http';
import { KINDS, type EventKind } from '@devtrail/kinds';
import { traceIdParam, tracesQuery } from './api-schemas.ts';
import { describeFields, json, openApiPath, sameKeys, type ApiDocs } from '@devtrail/http/api-docs';
import { READ_PATHS } from './read-routes.ts';
import { apiAnswers } from './access-docs.ts';

// The OpenAPI documentation of read-routes.ts. Its answers are written out here and
// checked against the column store's types they mirror.

export function documentReadApi(docs: ApiDocs) {
  const r = docs.registry;
  const { idParam, errors, projectNotFound } = apiAnswers(docs);
  // A record as the read API answers it: the event as the envelope carried it, plus its id
  // (and, for logs, its receive time). Derived (libs/kinds kind.ts), so a field added to an event is documented here too.
  const recordOf = (kind: EventKind) => r.register(KINDS[kind].docs.recordName, KINDS[kind].record);
  const logRecord = recordOf('log');
  const errorRecord = recordOf('error');
  const latest = z.object({
    event_id: z.string().uuid(),
    error_type: z.string(),
    error_message: z.string(),
    stack_trace: z.string(),
    severity: z.string(),
    service: z.string(),
    release: z.string(),
    environment: z.string(),
  });
  const errorGroup = r.register(
    'ErrorGroup',
    z.object({
      fingerprint: z.string(),
      count: z.number().int().openapi({ description: 'Distinct occurrences (by event id) over the retention.' }),
      range_count: z.number().int().openapi({ description: 'Distinct occurrences in the range asked for that match the search and filters.' }),
      users: z.number().int().openapi({ description: 'Distinct user ids (user_id; OTLP enduser.id) among those occurrences.' }),
      first_seen: z.string().datetime(),
      last_seen: z.string().datetime(),
      max_severity: z.enum(severities),
      latest: latest.openapi({ description: 'The most recent occurrence.' }),
    }),
  );
  const spanRecord = recordOf('span');
  const llmSummary = r.register(
    'LlmUsageSummary',
    z.object({
      day: z.string().openapi({ example: '2025-01-31' }),
      model: z.string(),
      provider: z.string(),
      service: z.string(),
      calls: z.number().int(),
      input_tokens: z.number().int(),
      output_tokens: z.number().int(),
      cost_usd: z.number().openapi({ description: LLM_COST_NOTES.cost_usd }),
      sent_cost_usd: z.number().openapi({ description: LLM_COST_NOTES.sent_cost_usd }),
      estimated_cost_usd: z.number().openapi({ description: LLM_COST_NOTES.estimated_cost_usd }),
      estimated_calls: z.number().int().openapi({ description: 'Calls whose cost is the estimate.' }),
      unpriced_calls: z.number().int().openapi({ description: 'Calls sent without a cost, of a model the price table does not price (counted as 0).' }),
      latency_p50_ms: z.number(),
      latency_p95_ms: z.number(),
    }),
  );
  const releaseHealth = r.register(
    'ReleaseHealth',
    z.object({
      release: z.string(),
      sessions: z.number().int().openapi({ description: 'Sessions (a process, a page) that started in the range.' }),
      crashed: z.number().int().openapi({ description: 'Sessions an error nobody handled ended.' }),
      errored: z.number().int().openapi({ description: 'Sessions with an error report that did not crash.' }),
      users: z.number().int().openapi({ description: "Distinct users (the sessions' distinct_id)." }),
      crashed_users: z.number().int().openapi({ description: 'Users with a crashed session.' }),
      crash_free_sessions: z.number().openapi({ description: 'Share of sessions that did not crash, 0..1.' }),
      crash_free_users: z.number().nullable().openapi({ description: 'Share of users none of whose sessions crashed, 0..1; null without users.' }),
      adoption: z.number().openapi({ description: "The release's share of the range's sessions, 0..1." }),
      first_seen: z.string().datetime(),
      crash_free_change: z.number().nullable().openapi({ description: 'crash_free_sessions minus that of the release first seen before it; null for the first.' }),
    }),
  );
  sameKeys<z.infer<typeof releaseHealth>, ReleaseHealth>(true);
  const kinds = EVENT_KINDS as [EventKind, ...EventKind[]];
  const ingestionRate = r.register('IngestionRate', z.object({ minute: z.string().datetime(), kind: z.enum(kinds), events: z.number().int() }));
  // The log, error and span records derive from their kind's fields, as the read queries' records do.
  sameKeys<z.infer<typeof errorGroup>, ErrorGroup>(true);
  sameKeys<z.infer<typeof latest>, ErrorGroup['latest']>(true);
  sameKeys<z.infer<typeof llmSummary>, LlmUsageSummary>(true);
  sameKeys<z.infer<typeof ingestionRate>, IngestionRate>(true);

  const nextCursor = z.string().nullable().openapi({ description: 'Pass as cursor for the next (older) page; null on the last page.' });
  const rangeNote = 'from/to: ISO 8601 with offset, or epoch milliseconds. Default range: the 24 hours before `to` (default now + 60 s). limit: 1..1000, default 100.';
  const read = (path: string, summary: string, query: AnyZodObject | null, ok: z.ZodTypeAny, extraParams?: AnyZodObject, notFoundMessage?: string) =>
    r.registerPath({
      method: 'get',
      path: openApiPath(path),
      tags: ['read'],
      summary,
      description: query ? rangeNote : undefined,
      security: [{ operatorToken: [] }],
      request: { params: extraParams ? idParam.merge(extraParams) : idParam, ...(query ? { query } : {}) },
      responses: {
        200: { description: 'OK', ...json(ok) },
        ...errors(projectNotFound),
        ...(notFoundMessage ? { 404: docs.errorResponse('Unknown project, or nothing found.', notFoundMessage) } : {}),
      },
    });

  read(
    READ_PATHS.logs,
    'Logs, newest first, cursor-paginated',
    describeFields(logsQuery, { level: 'Comma-separated levels, e.g. warn,error.', q: SEARCH_NOTE }),
    z.object({
      logs: z.array(logRecord),
      next_cursor: nextCursor,
      terms: z.array(z.string()).openapi({ description: "The search's words and phrases (not negated) as the UI highlights them." }),
    }),
  );
  read(
    READ_PATHS.errors,
    'Error occurrences, newest first, optionally of one group or one trace',
    describeFields(errorsQuery, { trace_id: 'Only occurrences reported with this trace id.' }),
    z.object({ errors: z.array(errorRecord), next_cursor: nextCursor }),
  );
  read(
    READ_PATHS.errorGroups,
    'Error groups with an occurrence in the range, most recently seen first (or by sort)',
    describeFields(errorGroupsQuery, {
      service: 'Groups with an occurrence of this service in the range.',
      environment: 'Groups with an occurrence in this environment.',
      q: `Groups with an occurrence matching this search, in the logs' syntax over the errors' fields (docs/dashboard.md, "Errors"). ${SEARCH_NOTE}`,
      sort: 'last_seen (default), first_seen, events (range_count), users: largest first.',
    }),
    z.object({ groups: z.array(errorGroup) }),
  );
  const tag = r.register(
    'ErrorGroupTag',
    z.object({
      key: z.string().openapi({ description: 'release, environment, service, browser, os, or context.<key>.' }),
      values: z.array(z.object({ value: z.string(), count: z.number().int() })).openapi({ description: 'The 10 most frequent values, by distinct occurrences.' }),
    }),
  );
  read(
    READ_PATHS.errorGroup,
    'One error group: counts, users, tags, releases, its chart and its 20 most recent occurrences (a merged group answers as its target)',
    describeFields(rangeQuery.pick({ from: true, to: true }), { from: "The chart's start (default: the group's first seen)." }),
    z.object({
      group: errorGroup,
      merged: z.array(z.string()).openapi({ description: 'Fingerprints merged into this group by hand (docs/fingerprint.md).' }),
      tags: z.array(tag),
      releases: z.array(z.object({ release: z.string(), count: z.number().int(), first_seen: z.string().datetime(), last_seen: z.string().datetime() })).openapi({
        description: 'Every release it was seen in (up to 200), by first seen.',
      }),
      chart: z
        .object({ from: z.string().datetime(), step_ms: z.number().int(), counts: z.array(z.number().int()) })
        .openapi({ description: 'Distinct occurrences per step over the range (48 steps at most).' }),
      recent: z.array(errorRecord),
      next_cursor: nextCursor.openapi({
        description: "For the next page of occurrences: GET /errors with this fingerprint, from the group's first_seen, and this cursor.",
      }),
    }),
    fingerprintParam,
    notFound('Error group').message,
  );
  const traceSummary = r.register(
    'TraceSummary',
    spanRecord.extend({
      span_count: z.number().int().openapi({ description: "The trace's spans." }),
      error_count: z.number().int().openapi({ description: 'Its spans with status error.' }),
      services: z.array(z.string()).openapi({ description: 'The services its spans ran in.' }),
    }),
  );
  // Its span fields derive from the kind's, as the record's do; the three it adds are checked.
  sameKeys<Pick<z.infer<typeof traceSummary>, 'span_count' | 'error_count' | 'services'>, Omit<TraceSummary, keyof SpanRecordType>>(true);
  read(
    READ_PATHS.traces,
    'Traces (their root spans) started in the range, newest or longest first',
    describeFields(traceSearchQuery, {
      q: TRACE_SEARCH_NOTE,
      sort: 'time: newest first (the default); duration: longest root span first. Ties by trace id, descending.',
      operation: 'Part of the root operation, any case.',
      service: 'Traces with a span of this service, in any case (Checkout finds checkout).',
      environment: 'Traces with a span in this environment (exactly).',
      min_duration_ms: "The root span's duration at least.",
      max_duration_ms: "The root span's duration at most.",
      status: 'error: a span of the trace failed; ok: none did.',
    }),
    z.object({ traces: z.array(traceSummary) }),
  );
  read(
    READ_PATHS.trace,
    'Every span of one trace, in start order',
    null,
    z.object({ trace_id: z.string(), spans: z.array(spanRecord) }),
    traceIdParam,
    notFound('Trace').message,
  );
  read(READ_PATHS.spans, 'Spans, newest first', tracesQuery, z.object({ spans: z.array(spanRecord) }));
  read(READ_PATHS.llmUsage, 'LLM usage per day, model, provider and service', rangeQuery, z.object({ usage: z.array(llmSummary) }));
  read(
    READ_PATHS.releaseHealth,
    'Release health: crash-free sessions and users, adoption and the change from the previous release, newest release first',
    describeFields(releaseHealthQuery, { environment: 'Only sessions of this environment.' }),
    z.object({ releases: z.array(releaseHealth) }),
  );
  read(
    READ_PATHS.ingestion,
    'Stored events per minute and kind, and consumer lag',
    describeFields(ingestionQuery, { minutes: 'Look-back in minutes.' }),
    z.object({
      per_minute: z.array(ingestionRate),
      consumers: z
        .array(z.record(z.unknown()))
        .nullable()
        .openapi({ description: 'Per-consumer counters and lag when this process runs the consumers (embedded mode); null otherwise.' }),
    }),
  );
  return { name: 'read', description: 'What the dashboard reads; operator token. Every query is bounded by project and time range.' };
}
