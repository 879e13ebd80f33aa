import { z } from 'zod';
import { bucketsOf } from '@devtrail/column-store';
import {
  readLlmByMetadata,
  readLlmCalls,
  readLlmLatency,
  readLlmMetadataKeys,
  readLlmSessions,
  readLlmUsage,
  scoresOfCalls,
  scoresOfSessions,
  SUMMARY_MEASURES,
} from '@devtrail/kinds';
import { badRequest } from '@devtrail/http';
import { route, type RouteGroup } from '@devtrail/http/route';
import { projectOf } from './access.ts';
import { apiTimeRange, rangeQuery } from './api-schemas.ts';
import { llmCallsQuery, llmFiltersQuery, llmLatencyQuery, llmMetadataQuery, llmSessionsQuery } from './explore-schemas.ts';
import { pricesOf } from './llm-estimates.ts';
import { LLM_COST_NOTES, LLM_SEARCH_NOTE, llmCall, SCORE_FILTER_NOTE, llmFilter, llmSession, llmSummary, metadataRow, series } from './llm-schemas.ts';
import { LLM_TRACE_ROUTE, LLM_USER_ROUTE } from './llm-trace-user.ts';
import { answers, OPERATOR, PAGED_RANGE_NOTE, projectParams, RANGE_NOTE } from './project-route.ts';
import type { ReadDeps } from './read-deps.ts';
import { AXIS, axisOf } from './read-notes.ts';

// LLM usage: per day, call by call, by session, by a metadata key, latency over time
// (libs/kinds/src/llm/). Costs are the effective cost (docs/otlp.md#llm-cost).

const metadataKeysQuery = llmFiltersQuery.omit({ cursor: true, limit: true });
const usageQuery = rangeQuery.extend({ service: z.string().max(500).optional(), model: z.string().max(500).optional() });
const breakdownQuery = llmLatencyQuery;
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
      query: usageQuery,
      notes: { service: 'Only calls of this service.', model: 'Only calls of this model (its exact name).' },
      answers: answers(z.object({ usage: z.array(llmSummary) })),
      async handle(d, { projectId, query: q }) {
        const retentionDays = (await d.retentionOf(projectId)).llm;
        return {
          usage: await readLlmUsage(d.reads, { projectId, retentionDays, prices: pricesOf(d.prices), range: apiTimeRange(q), service: q.service, model: q.model }),
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
      notes: {
        buckets: 'Buckets over the range, 2 to 500 (default 48).',
        service: 'Only calls of this service.',
        model: 'Only calls of this model (its exact name).',
        metadata: 'key:value: calls whose metadata has this key with this value (a user page: enduser.id:<user>).',
        q: LLM_SEARCH_NOTE,
        session: 'Only the calls of this session.',
      },
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
        const f = { ...(await llmFilter(d, projectId, q)), buckets };
        const [series, models] = await Promise.all([
          readLlmUsage(d.searches, { ...f, by: ['bucket', 'model'], measures: MEASURES, limit: 20_000 }),
          readLlmUsage(d.searches, { ...f, by: ['model', 'provider'], costliestFirst: true, limit: 1000 }),
        ]);
        return { ...axisOf(buckets), series, models };
      },
    }),
    LLM_TRACE_ROUTE,
    LLM_USER_ROUTE,
  ],
};
