import { z } from 'zod';
import '@devtrail/http/route';

// Words and shapes the read API's resources share in their documentation.

export const SEARCH_NOTE =
  'The logs search (docs/dashboard.md, "Search syntax"): words and "quoted phrases" match the message or the metadata, key:value, metadata.key:value, -negation, OR, ( ), * wildcards, level:>=warn, metadata.key:>500. A search it cannot read is a 400 naming the problem and its position.';

export const TRACE_SEARCH_NOTE =
  'The trace search (docs/dashboard.md, "Trace search"): the logs\' syntax over spans; a trace matches when one of its spans matches the whole search. Words match the operation or the attributes; service, environment, release, operation, status (ok, error), duration (duration:>2s, duration:<=250ms; us, ms, s, m, h; a bare number is ms), trace_id, span_id, parent_span_id; attribute keys (http.route:/checkout, metadata.tenant:acme) and resource.<key> for OTLP resource attributes. A search it cannot read is a 400 naming the problem and its position.';

export const NEXT_CURSOR = z.string().nullable().openapi({ description: 'Pass as cursor for the next (older) page; null on the last page.' });

/** A bucketed series' axis. */
export const AXIS = {
  from: z.number().int().openapi({ description: 'Start of the first bucket, epoch milliseconds.' }),
  step_ms: z.number().int().openapi({ description: 'Bucket width: whole minutes.' }),
  buckets: z.number().int(),
};
export const axisOf = (b: { fromMs: number; stepMs: number; count: number }) => ({ from: b.fromMs, step_ms: b.stepMs, buckets: b.count });
