import { z } from 'zod';
import { rangeOrDefault } from '@devtrail/column-store';
import {
  KINDS,
  MAX_EDGES,
  MAX_SERVICES,
  readServiceMap,
  readSpans,
  readSpanServices,
  readTrace,
  searchTraces,
  type ServiceEdge,
  type SpanRecord,
  type TraceSummary,
} from '@devtrail/kinds';
import { notFound } from '@devtrail/http';
import { sameKeys } from '@devtrail/http/api-docs';
import { route, type RouteGroup } from '@devtrail/http/route';
import { projectOf } from './access.ts';
import { apiTimeRange, rangeOnlyQuery, traceIdParam, tracesQuery } from './api-schemas.ts';
import { traceSearchQuery } from './explore-schemas.ts';
import { answers, OPERATOR, PAGED_RANGE_NOTE, projectAnd, projectParams, RANGE_NOTE } from './project-route.ts';
import type { ReadDeps } from './read-deps.ts';
import { TRACE_SEARCH_NOTE } from './read-notes.ts';

// Traces and spans: trace search, one trace, spans, the services spans ran in and the service
// map (libs/kinds/src/span/). Bounded by project, time range and the project's retention.

export const spanRecord = KINDS.span.record.openapi(KINDS.span.docs.recordName);
const traceSummary = spanRecord
  .extend({
    span_count: z.number().int().openapi({ description: "The trace's spans." }),
    error_count: z.number().int().openapi({ description: 'Its spans with status error.' }),
    services: z.array(z.string()).openapi({ description: 'The services its spans ran in.' }),
  })
  .openapi('TraceSummary');
// Its span fields derive from the kind's, as the record's do; the three it adds are checked.
sameKeys<Pick<z.infer<typeof traceSummary>, 'span_count' | 'error_count' | 'services'>, Omit<TraceSummary, keyof SpanRecord>>(true);
const serviceEdge = z
  .object({
    caller: z.string().openapi({ description: "The parent span's service." }),
    callee: z.string().openapi({ description: "The child span's service." }),
    calls: z.number().int().openapi({ description: 'Child spans started in the range.' }),
    errors: z.number().int().openapi({ description: 'Of them, with status error.' }),
    p95_ms: z.number().openapi({ description: 'Their duration, 95th percentile (exact), ms.' }),
  })
  .openapi('ServiceEdge');
sameKeys<z.infer<typeof serviceEdge>, ServiceEdge>(true);

const spansKept = async (d: ReadDeps, projectId: string) => (await d.retentionOf(projectId)).span;

export const TRACE_ROUTES: RouteGroup<ReadDeps> = {
  name: 'traces',
  description: 'Traces and spans: trace search, one trace, spans, services and the service map; operator token or session.',
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'get',
      path: '/api/projects/:id/traces',
      summary: 'Traces (their root spans) started in the range, newest or longest first',
      description: PAGED_RANGE_NOTE,
      query: traceSearchQuery,
      notes: {
        q: TRACE_SEARCH_NOTE,
        sort: 'time: newest first (the default); duration: longest root span first. Ties by trace id, descending.',
        operation: 'Part of the root operation, any case.',
        service: 'Traces with a span of this service, in any case (Checkout finds checkout).',
        environment: 'Traces with a span in this environment (exactly).',
        min_duration_ms: "The root span's duration at least.",
        max_duration_ms: "The root span's duration at most.",
        status: 'error: a span of the trace failed; ok: none did.',
      },
      answers: answers(z.object({ traces: z.array(traceSummary) })),
      async handle(d, { projectId, query: q }) {
        const traces = await searchTraces(d.reads, {
          projectId,
          retentionDays: await spansKept(d, projectId),
          range: apiTimeRange(q),
          operation: q.operation,
          service: q.service,
          environment: q.environment,
          minDurationMs: q.min_duration_ms,
          maxDurationMs: q.max_duration_ms,
          status: q.status,
          search: q.q,
          sort: q.sort,
          limit: q.limit,
        });
        return { traces };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/traces/:traceId',
      summary: 'Every span of one trace, in start order',
      params: projectAnd(traceIdParam),
      answers: answers(z.object({ trace_id: z.string(), spans: z.array(spanRecord) }), (docs) => ({
        404: docs.errorResponse('Unknown project, or nothing found.', notFound('Trace').message),
      })),
      async handle(d, { projectId, params }) {
        const spans = await readTrace(d.reads, projectId, params.traceId, await spansKept(d, projectId));
        if (spans.length === 0) throw notFound('Trace');
        return { trace_id: params.traceId, spans };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/spans',
      summary: 'Spans, newest first',
      description: PAGED_RANGE_NOTE,
      query: tracesQuery,
      answers: answers(z.object({ spans: z.array(spanRecord) })),
      async handle(d, { projectId, query: q }) {
        return {
          spans: await readSpans(d.reads, { projectId, retentionDays: await spansKept(d, projectId), range: apiTimeRange(q), operation: q.operation, limit: q.limit }),
        };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/spans/services',
      summary: "The services spans ran in over the range, busiest first (the trace search's service picker)",
      description: RANGE_NOTE,
      query: rangeOnlyQuery,
      answers: answers(z.object({ services: z.array(z.string()).openapi({ description: `At most ${MAX_SERVICES}.` }) })),
      async handle(d, { projectId, query: q }) {
        return { services: await readSpanServices(d.searches, { projectId, retentionDays: await spansKept(d, projectId), range: apiTimeRange(q) }) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/service-map',
      summary: "Which service calls which over the range, from the spans' parent-child links",
      description: `An edge is a span started in the range whose parent span (within an hour around the range) ran in another service: calls, how many failed, and their duration p95 (exact). Busiest first, at most ${MAX_EDGES} edges.`,
      query: rangeOnlyQuery,
      answers: answers(
        z.object({
          from: z.number().int().openapi({ description: 'The range read, epoch milliseconds.' }),
          to: z.number().int(),
          edges: z.array(serviceEdge),
        }),
      ),
      async handle(d, { projectId, query: q }) {
        const range = apiTimeRange(q);
        const edges = await readServiceMap(d.searches, { projectId, retentionDays: await spansKept(d, projectId), range });
        const { fromMs, toMs } = rangeOrDefault(range);
        return { from: fromMs, to: toMs, edges };
      },
    }),
  ],
};
