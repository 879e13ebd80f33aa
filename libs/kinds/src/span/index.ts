import { defineKind } from '../kind.ts';
import { SPAN_FIELDS } from './event.ts';
import { spanSchema, spanToEvent } from './request.ts';
import { spansFromOtlp } from './otlp.ts';
import { fastSpanToEvents } from './fast-path.ts';
import { SPAN_PATH, spanDocs } from './docs.ts';
import { rootsBackfillStep, rootsStatements } from './roots.ts';

// Trace spans: one per request (also from OTLP spans, otlp.ts).
export const span = defineKind({
  id: 'span',
  name: 'spans',
  path: SPAN_PATH,
  request: spanSchema,
  fields: SPAN_FIELDS,
  toEvents: (body) => [spanToEvent(body)],
  fastEvents: fastSpanToEvents,
  respond: () => ({ ok: true }),
  // A trace stays in order on one partition, when a batch is all one trace.
  partitionKey: 'trace_id',
  table: {
    receivedAt: true,
    indexes: [
      'idx_start start_time TYPE minmax GRANULARITY 1',
      'idx_operation operation TYPE set(1024) GRANULARITY 4',
      // Trace search (search-fields.ts), as the logs' search: substrings of the operation or
      // the attributes' JSON text by 4-grams, whole words (an attribute value with its quotes)
      // by tokens; the service picker's and the status' values; durations.
      'idx_service service TYPE set(256) GRANULARITY 4',
      'idx_status status TYPE set(2) GRANULARITY 4',
      'idx_duration duration_ms TYPE minmax GRANULARITY 1',
      'idx_text_ngram (lower(operation), lower(metadata)) TYPE ngrambf_v1(4, 32768, 3, 0) GRANULARITY 1',
      'idx_text_token (lower(operation), lower(metadata)) TYPE tokenbf_v1(32768, 3, 0) GRANULARITY 1',
    ],
    engine: 'ReplacingMergeTree',
    partitionBy: 'toYYYYMMDD(received_at)',
    // Ordered by trace: a whole trace is one contiguous read.
    orderBy: '(project_id, trace_id, span_id, event_id)',
    ttlColumn: 'received_at',
    timeColumn: 'start_time',
    // The root spans again, in time order, for trace search (roots.ts).
    after: rootsStatements,
    steps: [rootsBackfillStep],
  },
  otlp: spansFromOtlp,
  docs: spanDocs,
});
