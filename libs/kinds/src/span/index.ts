import { defineKind } from '../kind.ts';
import { SPAN_FIELDS } from './event.ts';
import { spanSchema, spanToEvent } from './request.ts';
import { spansFromOtlp } from './otlp.ts';
import { fastSpanToEvents } from './fast-path.ts';
import { SPAN_PATH, spanDocs } from './docs.ts';

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
    indexes: ['idx_start start_time TYPE minmax GRANULARITY 1', 'idx_operation operation TYPE set(1024) GRANULARITY 4'],
    engine: 'ReplacingMergeTree',
    partitionBy: 'toYYYYMMDD(received_at)',
    // Ordered by trace: a whole trace is one contiguous read.
    orderBy: '(project_id, trace_id, span_id, event_id)',
    ttlColumn: 'received_at',
    timeColumn: 'start_time',
  },
  otlp: spansFromOtlp,
  docs: spanDocs,
});
