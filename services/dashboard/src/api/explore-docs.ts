import { z, type AnyZodObject } from 'zod';
import {
  COST_SOURCES,
  FACET_COLUMNS,
  KINDS,
  logLevels,
  MAX_EDGES,
  MAX_EXPORT_LOGS,
  MAX_SERVICES,
  METADATA_SAMPLE,
  RANGE_BUCKETS,
  type FacetValue,
  type LlmMetadataRow,
  type LlmSession,
  type LogFacets,
  type LogRanges,
  type ServiceEdge,
} from '@devtrail/kinds';
import { describeFields, json, openApiPath, sameKeys, type ApiDocs, type ResponseConfig } from '@devtrail/http/api-docs';
import { notFound } from '@devtrail/http';
import { MAX_SAVED_QUERIES } from '@devtrail/relational-store';
import { apiAnswers } from './access-docs.ts';
import { rangeOnlyQuery } from './api-schemas.ts';
import { EXPLORE_PATHS } from './explore-routes.ts';
import {
  llmCallsQuery,
  llmLatencyQuery,
  llmMetadataQuery,
  llmSessionsQuery,
  logExportQuery,
  logFiltersQuery,
  logRangesQuery,
  logVolumeQuery,
  savedQueryBody,
  savedQueryParam,
  surroundingQuery,
} from './explore-schemas.ts';
import { SAVED_QUERY_PATHS, type savedQueryJson, TOO_MANY_SAVED } from './saved-query-routes.ts';
import { EXPORT_BUSY, EXPORT_SLOTS, EXPORTS_BUSY } from './export-slots.ts';

// The OpenAPI documentation of explore-routes.ts and saved-query-routes.ts.

export const SEARCH_NOTE =
  'The logs search (docs/dashboard.md, "Search syntax"): words and "quoted phrases" match the message or the metadata, key:value, metadata.key:value, -negation, OR, ( ), * wildcards, level:>=warn, metadata.key:>500. A search it cannot read is a 400 naming the problem and its position.';

export const TRACE_SEARCH_NOTE =
  'The trace search (docs/dashboard.md, "Trace search"): the logs\' syntax over spans; a trace matches when one of its spans matches the whole search. Words match the operation or the attributes; service, environment, release, operation, status (ok, error), duration (duration:>2s, duration:<=250ms; us, ms, s, m, h; a bare number is ms), trace_id, span_id, parent_span_id; attribute keys (http.route:/checkout, metadata.tenant:acme) and resource.<key> for OTLP resource attributes. A search it cannot read is a 400 naming the problem and its position.';
/** What each LLM cost figure is (docs/otlp.md#llm-cost). */
export const LLM_COST_NOTES = {
  cost_usd:
    'Effective cost in USD: the cost the client sent where it sent one (not 0), else the estimate from the tokens and the price table (libs/config/data/llm-prices.json or LLM_PRICES_FILE), else 0.',
  sent_cost_usd: 'The part of cost_usd the clients sent.',
  estimated_cost_usd: 'The part of cost_usd that is estimated from the price table.',
};
const LLM_SEARCH_NOTE =
  'The logs search syntax (docs/dashboard.md, "Search syntax") over the calls: words and "quoted phrases" match the conversation (input and output) or the metadata; message:word the conversation only; key:value a metadata key (trace_id, span_id, enduser.id, ...); service, environment and release their columns.';

export function documentExploreApi(docs: ApiDocs) {
  const r = docs.registry;
  const { idParam, errors, projectNotFound } = apiAnswers(docs);
  const filterNotes = { q: SEARCH_NOTE, level: 'Comma-separated levels, e.g. warn,error.' };
  const axis = {
    from: z.number().int().openapi({ description: 'Start of the first bucket, epoch milliseconds.' }),
    step_ms: z.number().int().openapi({ description: 'Bucket width: whole minutes.' }),
    buckets: z.number().int(),
  };
  const series = z.array(z.number());
  const facetValue = z.object({ value: z.string(), count: z.number().int() });
  const facets = r.register(
    'LogFacets',
    z.object({
      columns: z
        .object(Object.fromEntries(FACET_COLUMNS.map((c) => [c, z.array(facetValue)])) as Record<(typeof FACET_COLUMNS)[number], z.ZodArray<typeof facetValue>>)
        .openapi({
          description: 'Exact counts over every matching log, most common first (at most 10 each).',
        }),
      metadata: z
        .array(
          z.object({
            key: z.string(),
            count: z.number().int(),
            numeric: z.boolean().openapi({ description: 'Whether every sampled value of the key is a number: GET /logs/facets/ranges counts it in ranges.' }),
            values: z.array(facetValue),
          }),
        )
        .openapi({
          description: `The most common top-level metadata keys of the newest ${METADATA_SAMPLE.toLocaleString('en')} matching logs, each with its most common values (strings, integers, booleans).`,
        }),
      sampled: z.number().int().openapi({ description: 'How many logs the metadata facets were read from.' }),
    }),
  );
  sameKeys<z.infer<typeof facets>, LogFacets>(true);
  sameKeys<z.infer<typeof facetValue>, FacetValue>(true);
  const ranges = r.register(
    'LogRanges',
    z.object({
      key: z.string(),
      min: z.number().nullable().openapi({ description: 'The smallest number the key holds in the matching logs; null: no matching log holds a number there.' }),
      max: z.number().nullable().openapi({ description: 'The largest.' }),
      ranges: z
        .array(
          z.object({
            from: z.number().nullable().openapi({ description: 'Values above this (null: no lower bound).' }),
            to: z.number().nullable().openapi({ description: 'Values up to and including this (null: no upper bound).' }),
            count: z.number().int().openapi({ description: 'Exact: the matching logs the search metadata.<key>:>from metadata.<key>:<=to finds.' }),
          }),
        )
        .openapi({ description: 'In order, split at round numbers; the first and last are open-ended, so every number of the key is in one.' }),
    }),
  );
  sameKeys<z.infer<typeof ranges>, LogRanges>(true);
  const llmCall = r.register(
    'LlmCallRecord',
    KINDS.llm.record.extend({
      cost_usd: z.number().openapi({ description: LLM_COST_NOTES.cost_usd }),
      sent_cost_usd: z.number().openapi({ description: 'The cost the client sent (0: none).' }),
      cost_source: z
        .enum(COST_SOURCES)
        .openapi({ description: "Which cost cost_usd is: as sent, the price table's estimate, or 0 for a model the table does not price." }),
      estimated_cost_usd: z
        .number()
        .nullable()
        .openapi({ description: "The price table's estimate of the call (also when a cost was sent); null for a model it does not price." }),
      content_truncated: z.boolean().openapi({ description: 'Whether input or output were cut at the cap (docs/otlp.md, "Conversation").' }),
    }),
  );
  const llmSession = r.register(
    'LlmSession',
    z.object({
      session: z.string().openapi({ description: 'The metadata session.id its calls share, else their gen_ai.conversation.id.' }),
      calls: z.number().int(),
      input_tokens: z.number().int(),
      output_tokens: z.number().int(),
      cost_usd: z.number().openapi({ description: LLM_COST_NOTES.cost_usd }),
      first_at: z.string().datetime(),
      last_at: z.string().datetime(),
      user: z.string().nullable().openapi({ description: 'The enduser.id of its first call that carries one; null: none does.' }),
    }),
  );
  sameKeys<z.infer<typeof llmSession>, LlmSession>(true);
  const metadataRow = z.object({
    value: z.string().nullable().openapi({ description: 'A string as it is, another scalar as its JSON text; null: calls without the key.' }),
    calls: z.number().int(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    cost_usd: z.number().openapi({ description: LLM_COST_NOTES.cost_usd }),
    estimated_cost_usd: z.number().openapi({ description: LLM_COST_NOTES.estimated_cost_usd }),
    latency_p50_ms: z.number(),
    latency_p95_ms: z.number(),
  });
  sameKeys<z.infer<typeof metadataRow>, LlmMetadataRow>(true);
  const savedQuery = r.register(
    'SavedQuery',
    z.object({
      id: z.string().uuid(),
      name: z.string(),
      query: z.string(),
      range: z.string().nullable().openapi({ description: 'A relative range to open it with (15m, 1h, 7d), or null.' }),
      created_at: z.string().datetime(),
    }),
  );
  sameKeys<z.infer<typeof savedQuery>, ReturnType<typeof savedQueryJson>>(true);

  const rangeNote = 'from/to: ISO 8601 with offset, or epoch milliseconds. Default range: the 24 hours before `to` (default now + 60 s).';
  const path = (
    method: 'get' | 'post' | 'delete',
    route: string,
    summary: string,
    o: {
      query?: AnyZodObject;
      params?: AnyZodObject;
      body?: AnyZodObject;
      ok?: z.ZodTypeAny;
      status?: number;
      extra?: Record<string, ResponseConfig>;
      description?: string;
    },
  ) =>
    r.registerPath({
      method,
      path: openApiPath(route),
      tags: ['explore'],
      summary,
      description: o.description ?? (o.query ? rangeNote : undefined),
      security: [{ operatorToken: [] }],
      request: {
        params: o.params ? idParam.merge(o.params) : idParam,
        ...(o.query ? { query: o.query } : {}),
        ...(o.body ? { body: { required: true, ...json(o.body) } } : {}),
      },
      responses: { [o.status ?? 200]: o.ok ? { description: 'OK', ...json(o.ok) } : { description: 'Done' }, ...errors(projectNotFound), ...o.extra },
    });

  path('get', EXPLORE_PATHS.logVolume, 'Matching logs per time bucket and level (the logs histogram)', {
    query: describeFields(logVolumeQuery, { ...filterNotes, buckets: 'At most this many whole-minute buckets over the range.' }),
    ok: z.object({ ...axis, levels: z.object(Object.fromEntries(logLevels.map((l) => [l, series])) as Record<(typeof logLevels)[number], typeof series>) }),
  });
  path('get', EXPLORE_PATHS.logFacets, 'Facets of the matching logs: services, environments, releases, levels and metadata keys with counts', {
    query: describeFields(logFiltersQuery, filterNotes),
    ok: facets,
  });
  path('get', EXPLORE_PATHS.logRanges, "A numeric metadata key's facet: exact counts of the matching logs in a few ranges of its values", {
    query: describeFields(logRangesQuery, {
      ...filterNotes,
      key: 'A top-level metadata key (no space, ":", "(", ")" or \'"\'); a key with dots also counts the nested path, as the search does.',
      buckets: `At most this many ranges (${RANGE_BUCKETS.min} to ${RANGE_BUCKETS.max}, default ${RANGE_BUCKETS.default}).`,
    }),
    ok: ranges,
  });
  path('get', EXPLORE_PATHS.logExport, 'The matching logs as a file: CSV or NDJSON, newest first, streamed', {
    query: describeFields(logExportQuery, {
      ...filterNotes,
      format: "csv (RFC 4180; metadata as its JSON text; a text starting with = + - @ gets a ' before it) or ndjson (one log record per line).",
      limit: `At most this many logs (default and most: ${MAX_EXPORT_LOGS.toLocaleString('en')}).`,
    }),
    description: `The filters of GET /logs. Sent as an attachment; the body streams page by page. At most ${EXPORT_SLOTS.perProject} export of a project at a time, ${EXPORT_SLOTS.perProcess} per process.`,
    extra: {
      429: docs.errorResponse('An export of this project is running.', EXPORT_BUSY, { 'Retry-After': docs.retryAfter }),
      503: docs.errorResponse(`${EXPORT_SLOTS.perProcess} exports are running; or a store is unreachable, or the read ran past its time limit.`, EXPORTS_BUSY, {
        'Retry-After': docs.retryAfter,
      }),
      200: {
        description: 'The logs: a header line then one line per log (csv), or one JSON log record per line (ndjson).',
        content: { 'text/csv': { schema: z.string() }, 'application/x-ndjson': { schema: z.string() } },
      },
    },
  });
  path('get', EXPLORE_PATHS.logSurrounding, 'The logs just before and after one log ("surrounding lines"), oldest first', {
    query: describeFields(surroundingQuery, {
      timestamp: "The log's timestamp, which locates it.",
      service: 'Only logs of this service.',
      before: 'Logs before it (0 to 200, default 20).',
      after: 'Logs after it (0 to 200, default 20).',
    }),
    description: 'Within a day either side of the log; the log itself is in the list.',
    ok: z.object({ logs: z.array(r.register(KINDS.log.docs.recordName, KINDS.log.record)) }),
  });
  path('get', EXPLORE_PATHS.llmCalls, 'LLM calls one by one, newest first or sorted, cursor-paginated', {
    query: describeFields(llmCallsQuery, {
      metadata: 'key:value: calls whose metadata has this key with this value.',
      q: LLM_SEARCH_NOTE,
      session: 'Only the calls of this session (metadata session.id, else gen_ai.conversation.id).',
      sort: 'time (default), cost (effective), tokens (input + output) or latency.',
      order: 'desc (default: newest, costliest, largest, slowest first) or asc.',
    }),
    ok: z.object({ calls: z.array(llmCall), next_cursor: z.string().nullable() }),
  });
  path('get', EXPLORE_PATHS.llmSessions, 'LLM sessions (calls sharing a session.id or gen_ai.conversation.id), latest activity first', {
    query: describeFields(llmSessionsQuery, { limit: 'At most this many sessions (default 50).' }),
    ok: z.object({ sessions: z.array(llmSession) }),
  });
  path('get', EXPLORE_PATHS.llmMetadata, 'LLM usage per value of one metadata key', {
    query: describeFields(llmMetadataQuery, {
      key: 'The metadata key (top level), e.g. enduser.id, session.id or feature.',
      limit: 'At most this many values (default 50).',
      sort: 'calls (default), cost (effective), tokens or latency (p95): largest first.',
    }),
    ok: z.object({ key: z.string(), values: z.array(metadataRow) }),
  });
  path('get', EXPLORE_PATHS.llmMetadataKeys, 'The metadata keys of the newest 10,000 LLM calls, most common first', {
    query: llmCallsQuery.omit({ cursor: true, limit: true }),
    ok: z.object({ keys: z.array(z.object({ key: z.string(), calls: z.number().int() })) }),
  });
  path('get', EXPLORE_PATHS.llmLatency, 'LLM latency p50 and p95 and calls per time bucket', {
    query: llmLatencyQuery,
    ok: z.object({ ...axis, p50: series, p95: series, calls: series }),
  });
  const serviceEdge = r.register(
    'ServiceEdge',
    z.object({
      caller: z.string().openapi({ description: "The parent span's service." }),
      callee: z.string().openapi({ description: "The child span's service." }),
      calls: z.number().int().openapi({ description: 'Child spans started in the range.' }),
      errors: z.number().int().openapi({ description: 'Of them, with status error.' }),
      p95_ms: z.number().openapi({ description: 'Their duration, 95th percentile (exact), ms.' }),
    }),
  );
  path('get', EXPLORE_PATHS.spanServices, "The services spans ran in over the range, busiest first (the trace search's service picker)", {
    query: rangeOnlyQuery,
    ok: z.object({ services: z.array(z.string()).openapi({ description: `At most ${MAX_SERVICES}.` }) }),
  });
  path('get', EXPLORE_PATHS.serviceMap, "Which service calls which over the range, from the spans' parent-child links", {
    query: rangeOnlyQuery,
    description: `An edge is a span started in the range whose parent span (within an hour around the range) ran in another service: calls, how many failed, and their duration p95 (exact). Busiest first, at most ${MAX_EDGES} edges.`,
    ok: z.object({
      from: z.number().int().openapi({ description: 'The range read, epoch milliseconds.' }),
      to: z.number().int(),
      edges: z.array(serviceEdge),
    }),
  });
  sameKeys<z.infer<typeof serviceEdge>, ServiceEdge>(true);
  path('get', SAVED_QUERY_PATHS.list, "The project's saved log searches, by name", { ok: z.object({ saved_queries: z.array(savedQuery) }) });
  path('post', SAVED_QUERY_PATHS.list, 'Save a log search (a taken name is replaced)', {
    body: describeFields(savedQueryBody, { query: SEARCH_NOTE, name: '1 to 100 characters, unique in the project.' }),
    ok: z.object({ saved_query: savedQuery }),
    extra: { 409: docs.errorResponse(`The project has ${MAX_SAVED_QUERIES} saved searches already.`, TOO_MANY_SAVED) },
  });
  path('delete', SAVED_QUERY_PATHS.one, 'Delete a saved search', {
    params: savedQueryParam,
    status: 204,
    extra: { 404: docs.errorResponse('Unknown project or saved search.', { project: projectNotFound, search: notFound('Saved search').message }) },
  });
  return { name: 'explore', description: "The explorer's reads (logs histogram, facets, surrounding lines; LLM calls) and saved searches; operator token or session." };
}
