import { z } from 'zod';
import { bucketsOf } from '@devtrail/column-store';
import {
  COST_SOURCES,
  KINDS,
  readLlmByMetadata,
  readLlmCalls,
  readLlmLatency,
  readLlmMetadataKeys,
  readLlmSessions,
  readLlmUsage,
  scoresOfCalls,
  scoresOfSessions,
  SUMMARY_MEASURES,
  type LlmCallFilter,
  type LlmMetadataRow,
  type LlmSession,
  type LlmUsageSummary,
} from '@devtrail/kinds';
import { sameKeys } from '@devtrail/http/api-docs';
import { badRequest } from '@devtrail/http';
import { route, type RouteGroup } from '@devtrail/http/route';
import { projectOf } from './access.ts';
import { apiTimeRange, queryInt, rangeQuery } from './api-schemas.ts';
import { llmCallsQuery, llmFiltersQuery, llmLatencyQuery, llmMetadataQuery, llmSessionsQuery } from './explore-schemas.ts';
import { pricesOf } from './llm-estimates.ts';
import { answers, OPERATOR, PAGED_RANGE_NOTE, projectParams, RANGE_NOTE } from './project-route.ts';
import type { ReadDeps } from './read-deps.ts';
import { AXIS, axisOf } from './read-notes.ts';
import { linkedScore, scoreAverage } from '../scores/schemas.ts';

// LLM usage: per day, call by call, by session, by a metadata key, latency over time
// (libs/kinds/src/llm/). Costs are the effective cost (docs/otlp.md#llm-cost).

/** What each LLM cost figure is (docs/otlp.md#llm-cost). */
export const LLM_COST_NOTES = {
  cost_usd:
    'Effective cost in USD: the cost the client sent where it sent one (not 0), else the estimate from the tokens and the price table (libs/config/data/llm-prices.json or LLM_PRICES_FILE), else 0.',
  sent_cost_usd: 'The part of cost_usd the clients sent.',
  estimated_cost_usd: 'The part of cost_usd that is estimated from the price table.',
};
const SCORE_FILTER_NOTE =
  "<name><op><value>, op one of = != > >= < <= (e.g. helpfulness>=0.5, user_feedback=false, tone=rude): calls with a score of that name (their own or their trace's) whose value meets it; a number compares the value, anything else the label.";
const LLM_SEARCH_NOTE =
  'The logs search syntax (docs/dashboard.md, "Search syntax") over the calls: words and "quoted phrases" match the conversation (input and output) or the metadata; message:word the conversation only; key:value a metadata key (trace_id, span_id, enduser.id, ...); service, environment, release and model their columns.';

const llmSummary = z
  .object({
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
  })
  .openapi('LlmUsageSummary');
sameKeys<z.infer<typeof llmSummary>, LlmUsageSummary>(true);
const llmCall = KINDS.llm.record
  .extend({
    cost_usd: z.number().openapi({ description: LLM_COST_NOTES.cost_usd }),
    sent_cost_usd: z.number().openapi({ description: 'The cost the client sent (0: none).' }),
    cost_source: z.enum(COST_SOURCES).openapi({ description: "Which cost cost_usd is: as sent, the price table's estimate, or 0 for a model the table does not price." }),
    estimated_cost_usd: z
      .number()
      .nullable()
      .openapi({ description: "The price table's estimate of the call (also when a cost was sent); null for a model it does not price." }),
    content_truncated: z.boolean().openapi({ description: 'Whether input or output were cut at the cap (docs/otlp.md, "Conversation").' }),
    scores: z.array(linkedScore).openapi({ description: 'The call\'s scores (its own, then its trace\'s), each its latest version (docs/api.md, "Scores").' }),
  })
  .openapi('LlmCallRecord');
const llmSession = z
  .object({
    session: z.string().openapi({ description: 'The metadata session.id its calls share, else their gen_ai.conversation.id.' }),
    calls: z.number().int(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    cost_usd: z.number().openapi({ description: LLM_COST_NOTES.cost_usd }),
    first_at: z.string().datetime(),
    last_at: z.string().datetime(),
    user: z.string().nullable().openapi({ description: 'The enduser.id of its first call that carries one; null: none does.' }),
    scores: z.array(scoreAverage).openapi({ description: 'Per score name: scores on the session, its calls and their traces (docs/api.md, "Scores").' }),
  })
  .openapi('LlmSession');
sameKeys<Omit<z.infer<typeof llmSession>, 'scores'>, LlmSession>(true);
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
const series = z.array(z.number());

type LlmFiltersQuery = Partial<z.output<typeof llmFiltersQuery>>;
const llmFilter = async (d: ReadDeps, projectId: string, q: LlmFiltersQuery): Promise<LlmCallFilter> => ({
  projectId,
  retentionDays: (await d.retentionOf(projectId)).llm,
  prices: pricesOf(d.prices),
  range: apiTimeRange(q),
  model: q.model,
  service: q.service,
  metadata: q.metadata,
  search: q.q,
  session: q.session,
  score: q.score,
  scoreRetentionDays: (await d.retentionOf(projectId)).score,
});
const metadataKeysQuery = llmFiltersQuery.omit({ cursor: true, limit: true });
const breakdownQuery = rangeQuery.extend({ buckets: queryInt(2, 500).default(48), service: z.string().max(500).optional() });
const MEASURES = ['calls', 'tokens', 'input_tokens', 'output_tokens', 'cost_usd', 'estimated_cost_usd'] as const;
const numbers = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, z.number()])) as Record<K, z.ZodNumber>;

export const LLM_ROUTES: RouteGroup<ReadDeps> = {
  name: 'llm',
  description: 'LLM usage: per day, call by call, by session, by a metadata key, latency; operator token or session.',
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'get',
      path: '/api/projects/:id/llm-usage',
      summary: 'LLM usage per day, model, provider and service',
      description: PAGED_RANGE_NOTE,
      query: rangeQuery,
      answers: answers(z.object({ usage: z.array(llmSummary) })),
      async handle(d, { projectId, query: q }) {
        return {
          usage: await readLlmUsage(d.reads, { projectId, retentionDays: (await d.retentionOf(projectId)).llm, prices: pricesOf(d.prices), range: apiTimeRange(q) }),
        };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/llm-calls',
      summary: 'LLM calls one by one, newest first or sorted, cursor-paginated',
      description: RANGE_NOTE,
      query: llmCallsQuery,
      notes: {
        metadata: 'key:value: calls whose metadata has this key with this value.',
        q: LLM_SEARCH_NOTE,
        session: 'Only the calls of this session (metadata session.id, else gen_ai.conversation.id).',
        sort: "time (default), cost (effective), tokens (input + output), latency, or score (the mean of the call's scores named sort_score; only calls that have one).",
        sort_score: 'The score name sort=score sorts by (required with it).',
        score: SCORE_FILTER_NOTE,
        order: 'desc (default: newest, costliest, largest, slowest first) or asc.',
      },
      answers: answers(z.object({ calls: z.array(llmCall), next_cursor: z.string().nullable() })),
      async handle(d, { projectId, query: q }) {
        if (q.sort === 'score' && !q.sort_score) throw badRequest('sort=score needs sort_score, the score name', 'a score name', 'none', ['sort_score']);
        const f = await llmFilter(d, projectId, q);
        const r = await readLlmCalls(d.searches, { ...f, cursor: q.cursor, limit: q.limit, sort: q.sort, order: q.order, sortScore: q.sort_score });
        const scores = await scoresOfCalls(d.searches, { projectId, retentionDays: f.scoreRetentionDays ?? f.retentionDays }, r.calls);
        return { calls: r.calls.map((c) => ({ ...c, scores: scores.get(c.event_id) ?? [] })), next_cursor: r.nextCursor };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/llm-sessions',
      summary: 'LLM sessions (calls sharing a session.id or gen_ai.conversation.id), latest activity first',
      description: RANGE_NOTE,
      query: llmSessionsQuery,
      notes: { limit: 'At most this many sessions (default 50).' },
      answers: answers(z.object({ sessions: z.array(llmSession) })),
      async handle(d, { projectId, query: q }) {
        const f = await llmFilter(d, projectId, q);
        const sessions = await readLlmSessions(d.searches, { ...f, limit: q.limit });
        const scores = await scoresOfSessions(
          d.searches,
          { projectId, retentionDays: f.scoreRetentionDays ?? f.retentionDays, callRetentionDays: f.retentionDays, range: f.range },
          sessions.map((x) => x.session),
        );
        return { sessions: sessions.map((x) => ({ ...x, scores: scores.get(x.session) ?? [] })) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/llm-calls/by-metadata',
      summary: 'LLM usage per value of one metadata key',
      description: RANGE_NOTE,
      query: llmMetadataQuery,
      notes: {
        key: 'The metadata key (top level), e.g. enduser.id, session.id or feature.',
        limit: 'At most this many values (default 50).',
        sort: 'calls (default), cost (effective), tokens or latency (p95): largest first.',
      },
      answers: answers(z.object({ key: z.string(), values: z.array(metadataRow) })),
      async handle(d, { projectId, query: q }) {
        const rows = await readLlmByMetadata(d.searches, { ...(await llmFilter(d, projectId, q)), key: q.key, limit: q.limit, sort: q.sort });
        return { key: q.key, values: rows };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/llm-calls/metadata-keys',
      summary: 'The metadata keys of the newest 10,000 LLM calls, most common first',
      description: RANGE_NOTE,
      query: metadataKeysQuery,
      answers: answers(z.object({ keys: z.array(z.object({ key: z.string(), calls: z.number().int() })) })),
      async handle(d, { projectId, query: q }) {
        return { keys: await readLlmMetadataKeys(d.searches, await llmFilter(d, projectId, q)) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/llm-calls/latency',
      summary: 'LLM latency p50 and p95 and calls per time bucket',
      description: RANGE_NOTE,
      query: llmLatencyQuery,
      answers: answers(z.object({ ...AXIS, p50: series, p95: series, calls: series })),
      async handle(d, { projectId, query: q }) {
        const buckets = bucketsOf(apiTimeRange(q), q.buckets);
        return { ...axisOf(buckets), ...(await readLlmLatency(d.searches, await llmFilter(d, projectId, q), buckets)) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/llm-breakdown',
      summary: "LLM usage per time bucket and model, and per model over the range (the LLM page's chart and table)",
      description: RANGE_NOTE,
      query: breakdownQuery,
      notes: { buckets: 'Buckets over the range, 2 to 500 (default 48).', service: 'Only calls of this service.' },
      answers: answers(
        z.object({
          ...AXIS,
          series: z
            .array(z.object({ bucket: z.number().int().openapi({ description: "The bucket's start, epoch milliseconds." }), model: z.string(), ...numbers(MEASURES) }))
            .openapi({ description: `Per bucket and model (at most 20,000 rows); tokens is input plus output, costs effective (${LLM_COST_NOTES.cost_usd})` }),
          models: z
            .array(z.object({ model: z.string(), provider: z.string(), ...numbers(SUMMARY_MEASURES) }))
            .openapi({ description: 'Per model over the range, costliest first (at most 1,000).' }),
        }),
      ),
      async handle(d, { projectId, query: q }) {
        const buckets = bucketsOf(apiTimeRange(q), q.buckets);
        const retentionDays = (await d.retentionOf(projectId)).llm;
        const prices = pricesOf(d.prices);
        const [series, models] = await Promise.all([
          readLlmUsage(d.searches, { projectId, retentionDays, prices, buckets, service: q.service, by: ['bucket', 'model'], measures: MEASURES, limit: 20_000 }),
          readLlmUsage(d.searches, { projectId, retentionDays, prices, buckets, service: q.service, by: ['model', 'provider'], costliestFirst: true, limit: 1000 }),
        ]);
        return { ...axisOf(buckets), series, models };
      },
    }),
  ],
};
