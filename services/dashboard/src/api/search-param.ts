import { z } from 'zod';
import {
  ERROR_SEARCH,
  LLM_SEARCH,
  LOG_SEARCH,
  METRIC_SEARCH,
  parseSearch,
  SearchSyntaxError,
  SEARCH_LIMITS,
  SPAN_SEARCH,
  type SearchMap,
  type SearchNode,
} from '@devtrail/kinds';

// A kind's search (docs/dashboard.md, "Search syntax") as a query parameter: parsed here, so a
// search the syntax cannot read is a 400 that says what is wrong and where.

const searchOf = (map: SearchMap) =>
  z
    .string()
    .max(SEARCH_LIMITS.length)
    .transform((text, ctx): SearchNode | null => {
      try {
        return parseSearch(text, map);
      } catch (err) {
        if (!(err instanceof SearchSyntaxError)) throw err;
        ctx.addIssue({ code: 'custom', message: `search: ${err.message}`, params: { position: err.position } });
        return z.NEVER;
      }
    });

export const searchParam = searchOf(LOG_SEARCH);
/** The trace search (docs/dashboard.md, "Trace search"): the same syntax over spans. */
export const traceSearchParam = searchOf(SPAN_SEARCH);
export const errorSearchParam = searchOf(ERROR_SEARCH);
export const llmSearchParam = searchOf(LLM_SEARCH);
/** A metric's filter (docs/api.md#metrics): the same syntax over data points. */
export const metricSearchParam = searchOf(METRIC_SEARCH);
