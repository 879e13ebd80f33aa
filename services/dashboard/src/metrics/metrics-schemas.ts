import { z } from 'zod';
import { MAX_GROUP_KEYS, METRIC_AGGREGATIONS } from '@devtrail/kinds';
import { queryInt, rangeOnlyQuery } from '../api/api-schemas.ts';
import { metricSearchParam } from '../api/search-param.ts';

// The metrics read API's query strings (docs/api.md#metrics).

const metricName = z.string().min(1).max(255);
/** An attribute key or a group-by key, as long as the store keeps one. */
const KEY_LENGTH = 300;
const key = z.string().min(1).max(KEY_LENGTH);

export const namesQuery = rangeOnlyQuery;
export const keysQuery = rangeOnlyQuery.extend({ metric: metricName });
export const valuesQuery = keysQuery.extend({ key });
export const pointsQuery = keysQuery.extend({ limit: queryInt(1, 1000).optional() });

export const seriesQuery = rangeOnlyQuery.extend({
  metric: metricName,
  aggregation: z.enum(METRIC_AGGREGATIONS).default('sum'),
  step: queryInt(1, 86_400 * 31).optional(),
  // The pattern is the document's: a list it allows is one the route takes.
  group_by: z
    .string()
    .max(1000)
    .regex(new RegExp(`^,*(?:[^,]{1,${KEY_LENGTH}}(?:,+|$)){0,${MAX_GROUP_KEYS}}$`), `at most ${MAX_GROUP_KEYS} comma-separated keys of at most ${KEY_LENGTH} characters`)
    .optional()
    .transform((s) => (s ? s.split(',').filter(Boolean) : []))
    .pipe(z.array(key).max(MAX_GROUP_KEYS)),
  filter: metricSearchParam.optional(),
});
