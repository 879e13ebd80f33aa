import { COMMON_FIELDS, count, json, label, oneOf, text, time, type EventOf } from '../fields.ts';

export const spanStatuses = ['ok', 'error'] as const;

/** A span's fields, in order (kind.ts derives its schema, columns, row and record from them). */
export const SPAN_FIELDS = {
  ...COMMON_FIELDS,
  trace_id: text,
  span_id: text,
  parent_span_id: text,
  operation: label,
  start_time: time,
  duration_ms: count,
  status: oneOf(spanStatuses),
  /** The span's attributes (and its events'): a GenAI span's conversation among them (llm/conversation-keys.ts). */
  metadata: { ...json, conversation: true as const },
};

export type SpanEvent = EventOf<typeof SPAN_FIELDS>;
