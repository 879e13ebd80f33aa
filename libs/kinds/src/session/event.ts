import { COMMON_FIELDS, count, label, oneOf, time, type EventOf } from '../fields.ts';

/** A session's states, worst last: a session reads as the worst status any of its updates had (read.ts). */
export const sessionStatuses = ['ok', 'exited', 'errored', 'crashed'] as const;

/** One update of a session (release health, docs/api.md#release-health), in order: kind.ts derives its schema, columns, row and record. */
export const SESSION_FIELDS = {
  ...COMMON_FIELDS,
  session_id: label,
  /** Who the session was for (the user id), for crash-free users; "" when unknown. */
  distinct_id: label,
  status: oneOf(sessionStatuses),
  start_time: time,
  /** When this update was made. */
  timestamp: time,
  duration_ms: count,
  errors: count,
  /** The update's place among the session's updates. */
  seq: count,
};

export type SessionEvent = EventOf<typeof SESSION_FIELDS>;
