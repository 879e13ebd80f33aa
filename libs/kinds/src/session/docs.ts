import { z } from 'zod';
import type { KindDocs } from '../kind.ts';
import { COUNT_NOTE, requestComponent } from '../docs.ts';
import { sessionSchema } from './request.ts';

export const SESSION_PATH = '/ingest/sessions';

export const sessionDocs: KindDocs = {
  summary: 'Record one update of a session (release health)',
  description: 'A session is a process or a page from its start to its end; its updates say its status as it goes.',
  sample: { session_id: '0190a0b0-0000-7000-8000-000000000001', status: 'ok', start_time: '2025-06-01T10:00:00.000Z', release: 'v42' },
  required: 'session_id',
  recordName: 'SessionUpdate',
  success: { name: 'Ok', schema: () => z.object({ ok: z.literal(true) }) },
  requestBody: (docs) =>
    requestComponent(
      docs,
      'SessionUpdate',
      sessionSchema,
      SESSION_PATH,
      {
        session_id: 'The session, the same in each of its updates.',
        distinct_id: 'Who the session was for (a user id), for crash-free users.',
        status: 'ok while it runs; at its end exited, errored (an error was reported) or crashed (an error nobody handled).',
        duration_ms: COUNT_NOTE,
        errors: 'Error reports during the session so far.',
        seq: "The update's place among the session's updates.",
      },
      '.',
    ),
};
