import { z } from 'zod';
import { rangeOrDefault } from '@devtrail/column-store';
import { readLlmCalls, readLlmUsage, readTrace, readUserScores, scoresOfCalls } from '@devtrail/kinds';
import { route } from '@devtrail/http/route';
import { rangeOnlyQuery, traceIdParam } from './api-schemas.ts';
import { LLM_COST_NOTES, llmCall, llmFilter } from './llm-schemas.ts';
import { answers, projectAnd, RANGE_NOTE } from './project-route.ts';
import type { ReadDeps } from './read-deps.ts';
import { scoreAverage } from '../scores/schemas.ts';
import { spanRecord } from './traces.ts';

// Two views of LLM work beside the lists (docs/api.md, "LLM traces and users"): one trace's
// generations in its tree of spans, with the trace's total; one end user's calls, sessions
// and spend. Both read the calls through the same filter as every LLM read (metadata trace_id,
// enduser.id), so their totals are the sums of the calls the lists answer.

/** Calls one trace view lists, in time order. */
export const MAX_TRACE_CALLS = 500;

const totals = z
  .object({
    calls: z.number().int(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    cost_usd: z.number().openapi({ description: LLM_COST_NOTES.cost_usd }),
    estimated_cost_usd: z.number().openapi({ description: LLM_COST_NOTES.estimated_cost_usd }),
  })
  .openapi('LlmTotals');
const TOTALS = ['calls', 'input_tokens', 'output_tokens', 'cost_usd', 'estimated_cost_usd'] as const;

export const LLM_TRACE_ROUTE = route({
  method: 'get',
  path: '/api/projects/:id/llm-traces/:traceId',
  summary: "One trace's generations: its spans, the LLM calls made in it, and their total",
  description: `${RANGE_NOTE} The range bounds the calls (their time); the spans are the whole trace.`,
  params: projectAnd(traceIdParam),
  query: rangeOnlyQuery,
  answers: answers(
    z.object({
      trace_id: z.string(),
      spans: z
        .array(spanRecord)
        .openapi({ description: 'Every span of the trace in start order (at most 10,000; empty when spans were not sent or are past their retention).' }),
      calls: z.array(llmCall).openapi({
        description: `The calls whose metadata trace_id is the trace's, oldest first (at most ${MAX_TRACE_CALLS}); a call's metadata span_id names its span.`,
      }),
      total: totals.openapi({ description: 'Every call of the trace in the range, summed (also past the listed ones).' }),
    }),
  ),
  async handle(d: ReadDeps, { projectId, params, query: q }) {
    const kept = await d.retentionOf(projectId);
    const f = { ...(await llmFilter(d, projectId, q)), metadata: { key: 'trace_id', value: params.traceId } };
    const [spans, listed, [total]] = await Promise.all([
      readTrace(d.reads, projectId, params.traceId, kept.span),
      readLlmCalls(d.searches, { ...f, sort: 'time', order: 'asc', limit: MAX_TRACE_CALLS }),
      readLlmUsage(d.searches, { ...f, by: [], measures: TOTALS, limit: 1 }),
    ]);
    const scores = await scoresOfCalls(d.searches, { projectId, retentionDays: kept.score }, listed.calls);
    return { trace_id: params.traceId, spans, calls: listed.calls.map((c) => ({ ...c, scores: scores.get(c.event_id) ?? [] })), total };
  },
});

const userParam = z.object({ user: z.string().min(1).max(1000).openapi({ description: "The end user's id, as calls carry it in metadata enduser.id." }) });

export const LLM_USER_ROUTE = route({
  method: 'get',
  path: '/api/projects/:id/llm-users/:user',
  summary: "One end user's LLM work: first and last seen, and calls, sessions, tokens, cost and scores over the range",
  description: `${RANGE_NOTE} first_at and last_at look over the whole retention of LLM usage, the rest over the range. The user's calls, sessions and cost per bucket: llm-calls, llm-sessions and llm-breakdown with metadata=enduser.id:<user>.`,
  params: projectAnd(userParam),
  query: rangeOnlyQuery,
  answers: answers(
    z.object({
      user: z.string(),
      first_at: z.string().datetime().nullable().openapi({ description: 'Their first call kept (null: none is).' }),
      last_at: z.string().datetime().nullable().openapi({ description: 'Their latest call kept.' }),
      sessions: z.number().int().openapi({ description: 'Sessions with calls of theirs in the range.' }),
      ...totals.shape,
      scores: z.array(scoreAverage).openapi({
        description:
          'Per score name over the range: scores given to the user, to their calls, those calls\' traces and their sessions, each once (docs/api.md, "Scores").',
      }),
    }),
  ),
  async handle(d: ReadDeps, { projectId, params, query: q }) {
    const f = { ...(await llmFilter(d, projectId, q)), metadata: { key: 'enduser.id', value: params.user } };
    const ever = { fromMs: Date.now() - (f.retentionDays + 1) * 86_400_000, toMs: rangeOrDefault(f.range).toMs };
    const [[seen], [inRange], scores] = await Promise.all([
      readLlmUsage(d.searches, { ...f, range: ever, by: [], measures: ['calls', 'first_ms', 'last_ms'], limit: 1 }),
      readLlmUsage(d.searches, { ...f, by: [], measures: [...TOTALS, 'sessions'], limit: 1 }),
      readUserScores(d.searches, {
        projectId,
        retentionDays: f.scoreRetentionDays ?? f.retentionDays,
        callRetentionDays: f.retentionDays,
        range: f.range,
        user: params.user,
      }),
    ]);
    const at = (ms: number | undefined) => (seen && seen.calls > 0 && ms !== undefined ? new Date(ms).toISOString() : null);
    return { user: params.user, first_at: at(seen?.first_ms), last_at: at(seen?.last_ms), ...inRange, scores };
  },
});
