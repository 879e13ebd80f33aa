import { randomUUID } from 'node:crypto';
import { decodeMessage, HEADERS, SCHEMA_VERSION, type EncodedMessage, type Envelope } from '@devtrail/contract';
import { kindOf, type EventDataByKind, type EventKind } from '@devtrail/kinds';

// Messages as tests and fixtures build them: one event at a time, and version-1 messages
// as receivers before schema version 2 wrote them (consumers still read those).

/** One event as a consumer sees it. */
export function newEnvelope<K extends EventKind>(kind: K, projectId: string, receivedAt: string, data: EventDataByKind[K]): Envelope<K> {
  return { schema_version: SCHEMA_VERSION, event_id: randomUUID(), kind, project_id: projectId, received_at: receivedAt, data };
}

/** A version-1 message of one event, as older receivers wrote it. */
export function encodeEnvelope(env: Envelope): EncodedMessage {
  return {
    key: env.event_id,
    value: Buffer.from(JSON.stringify({ ...env, schema_version: 1 })),
    headers: {
      [HEADERS.schemaVersion]: '1',
      [HEADERS.kind]: env.kind,
      [HEADERS.eventId]: env.event_id,
      [HEADERS.projectId]: env.project_id,
      [HEADERS.contentType]: 'application/json',
    },
  };
}

/** The one event of a version-1 message; a DecodeError for anything else. */
export function decodeEnvelope<K extends EventKind>(kind: K, value: Buffer | string): Envelope<K> {
  const decoded = decodeMessage(kind, value);
  if (decoded.events.length !== 1 || decoded.rejected.length > 0) throw new Error('not a message of one readable event');
  return decoded.events[0];
}

/** An event's row in its kind's table. */
export const toRow = (e: Envelope) => kindOf(e.kind).toRow(e as never, 30);
