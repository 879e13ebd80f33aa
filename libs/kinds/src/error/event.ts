import { z } from 'zod';
import { added, COMMON_FIELDS, freeText, json, jsonList, label, oneOf, sha256Hex, text, time, type EventOf } from '../fields.ts';

export const severities = ['low', 'medium', 'high', 'critical'] as const;

/** An error event's fields, in order (kind.ts derives its schema, columns, row and record from them). */
export const ERROR_FIELDS = {
  ...COMMON_FIELDS,
  timestamp: time,
  fingerprint: sha256Hex,
  error_type: label,
  error_message: freeText,
  stack_trace: freeText,
  severity: oneOf(severities),
  context: json,
  trace_id: text,
  user_id: freeText,
  breadcrumbs: jsonList(z.object({ type: z.string(), message: z.string(), timestamp: z.string() })),
  /** The earlier grouping rules' fingerprints, space-separated, nearest first ('' when the client chose the group; one fingerprint in rows written before rule v3): an event joins a live group one of them names (docs/fingerprint.md#upgrading). */
  previous_fingerprint: added(text, ''),
};

export type ErrorEvent = EventOf<typeof ERROR_FIELDS>;

/** An error group's fingerprint: SHA-256, 64 lowercase hex (docs/fingerprint.md). */
export const fingerprintHex = ERROR_FIELDS.fingerprint.event;
