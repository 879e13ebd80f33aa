import { z } from 'zod';
import { storeCount, storeTimestamp } from '@devtrail/column-store/store-domain';
import { utc } from '../checks.ts';
import { id, jsonObject, sharedRequestFields } from '../request-fields.ts';
import { spanStatuses, type SpanEvent } from './event.ts';

// POST /ingest/traces: one span (docs/api.md).

export const spanSchema = z.object({
  ...sharedRequestFields,
  trace_id: id,
  span_id: id,
  parent_span_id: id.default(''),
  operation: z.string(),
  start_time: storeTimestamp,
  duration_ms: storeCount,
  status: z.enum(spanStatuses).default('ok'),
  metadata: jsonObject.optional(),
});

export type SpanInput = z.infer<typeof spanSchema>;

export function spanToEvent(s: SpanInput): SpanEvent {
  return {
    service: s.service,
    environment: s.environment,
    release: s.release ?? '',
    trace_id: s.trace_id,
    span_id: s.span_id,
    parent_span_id: s.parent_span_id,
    operation: s.operation,
    start_time: utc(s.start_time),
    duration_ms: s.duration_ms,
    status: s.status,
    metadata: s.metadata ?? {},
  };
}
