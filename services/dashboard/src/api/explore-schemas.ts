import { z } from 'zod';
import {
  BREAKDOWN_SORTS,
  CALL_SORTS,
  GROUP_SORTS,
  MAX_EXPORT_LOGS,
  MAX_ID_LENGTH,
  MAX_SCORE_NAME,
  parseScoreCondition,
  RANGE_BUCKETS,
  spanStatuses,
  TRACE_SORTS,
} from '@devtrail/kinds';
import { EXPORT_FORMATS } from './log-export.ts';
import { nameText, pgText } from '@devtrail/http';
import { logsQuery, queryInt, rangeQuery } from './api-schemas.ts';
import { errorSearchParam, llmSearchParam, searchParam, traceSearchParam } from './search-param.ts';

// Request schemas of the explorer reads (logs.ts, traces.ts, errors.ts, llm.ts) and saved
// searches (saved-queries.ts), beside api-schemas.ts.

const { cursor: _c, limit: _l, ...logFilters } = logsQuery.shape;
/** The logs list's filters without its paging. */
export const logFiltersQuery = z.object(logFilters);
export const logVolumeQuery = logFiltersQuery.extend({ buckets: queryInt(2, 500).default(60) });
/** A numeric metadata key's ranges: a key the search syntax can write (no space, `:`, `(`, `)` or `"`). */
export const logRangesQuery = logFiltersQuery.extend({
  key: z
    .string()
    .min(1)
    .max(MAX_ID_LENGTH)
    .regex(/^[^\s:()"]+$/, 'a metadata key the search can write: no space, ":", "(", ")" or \'"\''),
  buckets: queryInt(RANGE_BUCKETS.min, RANGE_BUCKETS.max).default(RANGE_BUCKETS.default),
});
export const logExportQuery = logFiltersQuery.extend({
  format: z.enum(EXPORT_FORMATS).default('csv'),
  limit: queryInt(1, MAX_EXPORT_LOGS).default(MAX_EXPORT_LOGS),
});

const count = (max: number, def: number) => queryInt(0, max).default(def);
export const surroundingQuery = z.object({
  event_id: z.string().uuid(),
  timestamp: z.string().datetime({ offset: true }),
  before: count(200, 20),
  after: count(200, 20),
  service: z.string().max(500).optional(),
});

/** Error groups with an occurrence of this service or environment. */
export const errorGroupsQuery = rangeQuery.extend({
  service: z.string().max(500).optional(),
  environment: z.string().max(500).optional(),
  q: errorSearchParam.optional(),
  sort: z.enum(GROUP_SORTS).optional(),
});

export const traceSearchQuery = rangeQuery.extend({
  operation: z.string().max(500).optional(),
  service: z.string().max(500).optional(),
  environment: z.string().max(500).optional(),
  min_duration_ms: queryInt(0, Number.MAX_SAFE_INTEGER).optional(),
  max_duration_ms: queryInt(0, Number.MAX_SAFE_INTEGER).optional(),
  status: z.enum(spanStatuses).optional(),
  q: traceSearchParam.optional(),
  sort: z.enum(TRACE_SORTS).default('time'),
});

/** `key:value` of a metadata filter: the key up to the first colon. */
const metadataFilter = z
  .string()
  .max(1000)
  .regex(/^[^:]+:/, 'key:value')
  .transform((s) => ({ key: s.slice(0, s.indexOf(':')), value: s.slice(s.indexOf(':') + 1) }));
/** `<name><op><value>`: calls with a score meeting it (libs/kinds/src/score/call-scores.ts). */
const scoreConditionParam = z
  .string()
  .max(500)
  .transform((s, ctx) => {
    const c = parseScoreCondition(s);
    if (!c) ctx.addIssue({ code: z.ZodIssueCode.custom, message: '<name><op><value>, op one of = != > >= < <=' });
    return c ?? z.NEVER;
  });
/** The filters every LLM calls read takes. */
export const llmFiltersQuery = rangeQuery.extend({
  model: z.string().max(500).optional(),
  service: z.string().max(500).optional(),
  metadata: metadataFilter.optional(),
  q: llmSearchParam.optional(),
  session: z.string().max(1000).optional(),
  score: scoreConditionParam.optional(),
});
const sortOf = <T extends Record<string, unknown>>(sorts: T) => z.enum(Object.keys(sorts) as [Extract<keyof T, string>, ...Array<Extract<keyof T, string>>]);
export const llmCallsQuery = llmFiltersQuery.extend({
  sort: sortOf(CALL_SORTS).optional(),
  order: z.enum(['desc', 'asc']).optional(),
  sort_score: z.string().min(1).max(MAX_SCORE_NAME).optional(),
});
export const llmMetadataQuery = llmFiltersQuery.omit({ cursor: true }).extend({ key: z.string().min(1).max(MAX_ID_LENGTH), sort: sortOf(BREAKDOWN_SORTS).optional() });
export const llmSessionsQuery = llmFiltersQuery.omit({ cursor: true, session: true });
export const llmLatencyQuery = llmFiltersQuery.omit({ cursor: true, limit: true }).extend({ buckets: queryInt(2, 500).default(48) });

/** A relative range a saved search opens with: a number and m, h or d. */
export const RELATIVE_RANGE = /^\d{1,4}[mhd]$/;
export const savedQueryBody = z.object({
  name: nameText(100),
  query: pgText().superRefine((q, ctx) => {
    const r = searchParam.safeParse(q);
    if (!r.success) for (const issue of r.error.issues) ctx.addIssue(issue);
  }),
  range: z.string().regex(RELATIVE_RANGE, 'a relative range such as 15m, 1h or 7d').nullable().default(null),
});
export const savedQueryParam = z.object({ queryId: z.string().uuid() });
