import { defineKind } from '../kind.ts';
import { SESSION_FIELDS } from './event.ts';
import { sessionSchema, sessionToEvent } from './request.ts';
import { SESSION_PATH, sessionDocs } from './docs.ts';

// Release health: updates of sessions (a process, a page), one per request; read per release
// by read.ts.
export const session = defineKind({
  id: 'session',
  name: 'sessions',
  path: SESSION_PATH,
  request: sessionSchema,
  fields: SESSION_FIELDS,
  toEvents: (body, now) => [sessionToEvent(body, now)],
  respond: () => ({ ok: true }),
  // A session's updates stay in order on one partition, when a batch is all one session.
  partitionKey: 'session_id',
  table: {
    receivedAt: true,
    engine: 'ReplacingMergeTree',
    partitionBy: 'toYYYYMM(start_time)',
    // By release and session: a release's health is one contiguous read.
    orderBy: '(project_id, release, session_id, event_id)',
    ttlColumn: 'received_at',
    timeColumn: 'start_time',
  },
  docs: sessionDocs,
});
