import { z } from 'zod';
import { parseSearch, parseSpanSearch, SearchSyntaxError, SEARCH_LIMITS, type SearchNode } from '@devtrail/kinds';

// The logs search (docs/dashboard.md, "Search syntax") and the trace search as query parameters: parsed here, so
// a search the syntax cannot read is a 400 that says what is wrong and where.

const searchOf = (parse: (text: string) => SearchNode | null) =>
  z
    .string()
    .max(SEARCH_LIMITS.length)
    .transform((text, ctx): SearchNode | null => {
      try {
        return parse(text);
      } catch (err) {
        if (!(err instanceof SearchSyntaxError)) throw err;
        ctx.addIssue({ code: 'custom', message: `search: ${err.message}`, params: { position: err.position } });
        return z.NEVER;
      }
    });

export const searchParam = searchOf(parseSearch);
/** The trace search (docs/dashboard.md, "Trace search"): the same syntax over spans. */
export const traceSearchParam = searchOf(parseSpanSearch);
