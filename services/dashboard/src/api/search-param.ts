import { z } from 'zod';
import { parseSearch, SearchSyntaxError, SEARCH_LIMITS, type SearchNode } from '@devtrail/kinds';

// The logs search (docs/dashboard.md, "Search syntax") as a query parameter: parsed here, so
// a search the syntax cannot read is a 400 that says what is wrong and where.

export const searchParam = z
  .string()
  .max(SEARCH_LIMITS.length)
  .transform((text, ctx): SearchNode | null => {
    try {
      return parseSearch(text);
    } catch (err) {
      if (!(err instanceof SearchSyntaxError)) throw err;
      ctx.addIssue({ code: 'custom', message: `search: ${err.message}`, params: { position: err.position } });
      return z.NEVER;
    }
  });
