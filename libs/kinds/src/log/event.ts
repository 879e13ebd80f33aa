import { COMMON_FIELDS, freeText, json, label, oneOf, text, time, type EventOf } from '../fields.ts';

export const logLevels = ['debug', 'info', 'warn', 'error'] as const;

/** A log event's fields, in order (kind.ts derives its schema, columns, row and record from them). */
export const LOG_FIELDS = {
  ...COMMON_FIELDS,
  timestamp: time,
  level: oneOf(logLevels),
  message: freeText,
  metadata: json,
  trace_id: text,
  span_id: text,
  request_id: text,
  context: label,
};

export type LogEvent = EventOf<typeof LOG_FIELDS>;
