import { z } from 'zod';
import { MAX_GROUP_KEYS, METRIC_AGGREGATIONS, parseMetricSearch, SearchSyntaxError, SEARCH_LIMITS, type SearchNode } from '@devtrail/kinds';
import { queryInt, rangeOnlyQuery } from '../api/api-schemas.ts';

// The metrics read API's query strings (docs/api.md#metrics).

export const PATHS = {
  names: '/api/projects/:id/metrics',
  keys: '/api/projects/:id/metrics/attributes',
  values: '/api/projects/:id/metrics/attribute-values',
  series: '/api/projects/:id/metrics/series',
  points: '/api/projects/:id/metrics/points',
} as const;

const metricName = z.string().min(1).max(255);
const key = z.string().min(1).max(300);

export const namesQuery = rangeOnlyQuery;
export const keysQuery = rangeOnlyQuery.extend({ metric: metricName });
export const valuesQuery = keysQuery.extend({ key });
export const pointsQuery = keysQuery.extend({ limit: queryInt(1, 1000).optional() });

/** A filter in the search syntax (docs/dashboard.md, "Search syntax"), parsed here so a bad one is a 400 that says where. */
const filterParam = z
  .string()
  .max(SEARCH_LIMITS.length)
  .transform((text, ctx): SearchNode | null => {
    try {
      return parseMetricSearch(text);
    } catch (err) {
      if (!(err instanceof SearchSyntaxError)) throw err;
      ctx.addIssue({ code: 'custom', message: `filter: ${err.message}`, params: { position: err.position } });
      return z.NEVER;
    }
  });

export const seriesQuery = rangeOnlyQuery.extend({
  metric: metricName,
  aggregation: z.enum(METRIC_AGGREGATIONS).default('sum'),
  /** Seconds; made larger when the range would hold more steps than an answer holds. */
  step: queryInt(1, 86_400 * 31).optional(),
  group_by: z
    .string()
    .max(1000)
    .optional()
    .transform((s) => (s ? s.split(',').filter(Boolean) : []))
    .pipe(z.array(key).max(MAX_GROUP_KEYS)),
  filter: filterParam.optional(),
});
