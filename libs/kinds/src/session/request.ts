import { z } from 'zod';
import { storeCount, storeTimestamp } from '@devtrail/column-store/store-domain';
import { utc } from '../checks.ts';
import { id, sharedRequestFields } from '../request-fields.ts';
import { sessionStatuses, type SessionEvent } from './event.ts';

// POST /ingest/sessions: one update of a session (release health, docs/api.md#release-health):
// a Node process or a browser page from its start to its end, sent as it starts, when its status
// changes and as it ends.

export const sessionSchema = z.object({
  ...sharedRequestFields,
  session_id: id.min(1),
  distinct_id: id.optional(),
  status: z.enum(sessionStatuses),
  start_time: storeTimestamp,
  /** Default: the receive time. */
  timestamp: storeTimestamp.optional(),
  duration_ms: storeCount.default(0),
  errors: storeCount.default(0),
  seq: storeCount.default(0),
});

export type SessionInput = z.infer<typeof sessionSchema>;

export function sessionToEvent(s: SessionInput, now: string): SessionEvent {
  return {
    service: s.service,
    environment: s.environment,
    release: s.release ?? '',
    session_id: s.session_id,
    distinct_id: s.distinct_id ?? '',
    status: s.status,
    start_time: utc(s.start_time),
    timestamp: s.timestamp ? utc(s.timestamp) : now,
    duration_ms: s.duration_ms,
    errors: s.errors,
    seq: s.seq,
  };
}
