import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { EVENT_KINDS, KINDS, type EventDataByKind, type EventKind } from './kinds.ts';
import { fastLogEvent, isPlainObject, ISO_DATETIME } from './fast-paths.ts';
import { Failure } from './failure.ts';

// One Kafka message per event: a JSON envelope plus headers that let a consumer route
// or filter without parsing the value. Version 1 of the message schema.
export const SCHEMA_VERSION = 1;

export interface Envelope<K extends EventKind = EventKind> {
  schema_version: number;
  event_id: string;
  kind: K;
  project_id: string;
  received_at: string;
  data: EventDataByKind[K];
}

export const HEADERS = {
  schemaVersion: 'dt-schema-version',
  kind: 'dt-kind',
  eventId: 'dt-event-id',
  projectId: 'dt-project-id',
  contentType: 'content-type',
} as const;

export interface EncodedEvent {
  key: string;
  value: Buffer;
  headers: Record<string, string>;
}

export function newEnvelope<K extends EventKind>(kind: K, projectId: string, receivedAt: string, data: EventDataByKind[K]): Envelope<K> {
  return { schema_version: SCHEMA_VERSION, event_id: randomUUID(), kind, project_id: projectId, received_at: receivedAt, data };
}

/** Partition key: spans by trace (a trace stays in order on one partition), errors by fingerprint, others by event. */
export function partitionKey(env: Envelope): string {
  if (env.kind === 'span') return (env.data as EventDataByKind['span']).trace_id || env.event_id;
  if (env.kind === 'error') return (env.data as EventDataByKind['error']).fingerprint;
  return env.event_id;
}

export function encodeEnvelope(env: Envelope): EncodedEvent {
  return {
    key: partitionKey(env),
    value: Buffer.from(JSON.stringify(env)),
    headers: {
      [HEADERS.schemaVersion]: String(env.schema_version),
      [HEADERS.kind]: env.kind,
      [HEADERS.eventId]: env.event_id,
      [HEADERS.projectId]: env.project_id,
      [HEADERS.contentType]: 'application/json',
    },
  };
}

const envelopeShape = z.object({
  schema_version: z.number().int(),
  event_id: z.string().uuid(),
  kind: z.enum(EVENT_KINDS as [EventKind, ...EventKind[]]),
  project_id: z.string().min(1),
  received_at: z.string().datetime({ offset: true }),
  data: z.unknown(),
});

/** A message that can never be decoded: permanent, so the consumer dead-letters it. */
export class DecodeError extends Failure {
  constructor(message: string) {
    super(message, false);
  }
}

/**
 * Decodes and validates a message of the expected kind. Newer minor fields are
 * ignored; a schema_version above what this build knows is refused (DecodeError) so it
 * lands in the dead-letter topic rather than being half-understood.
 */
export function decodeEnvelope<K extends EventKind>(kind: K, value: Buffer | string | null): Envelope<K> {
  if (value === null) throw new DecodeError('empty message value');
  let raw: unknown;
  try {
    raw = JSON.parse(typeof value === 'string' ? value : value.toString('utf8'));
  } catch {
    throw new DecodeError('message value is not JSON');
  }
  const fast = fastEnvelope(kind, raw);
  if (fast) return fast;
  const env = envelopeShape.safeParse(raw);
  if (!env.success) throw new DecodeError(`bad envelope: ${describe(env.error)}`);
  if (env.data.schema_version > SCHEMA_VERSION) throw new DecodeError(`unsupported schema_version ${env.data.schema_version}`);
  if (env.data.kind !== kind) throw new DecodeError(`expected kind ${kind}, got ${env.data.kind}`);
  const data = KINDS[kind].event.safeParse(env.data.data);
  if (!data.success) throw new DecodeError(`bad ${kind} data: ${describe(data.error)}`);
  return { ...env.data, kind, data: data.data } as Envelope<K>;
}

/** The regex z.string().uuid() tests (zod 3). */
const UUID = /^[0-9a-fA-F]{8}\b-[0-9a-fA-F]{4}\b-[0-9a-fA-F]{4}\b-[0-9a-fA-F]{4}\b-[0-9a-fA-F]{12}$/i;

/** The zod path's result for a well-formed log envelope without running zod (fast-paths.ts); undefined otherwise. */
function fastEnvelope<K extends EventKind>(kind: K, raw: unknown): Envelope<K> | undefined {
  if (kind !== 'log' || !isPlainObject(raw)) return undefined;
  const { schema_version, event_id, project_id, received_at } = raw;
  if (typeof schema_version !== 'number' || !Number.isInteger(schema_version) || schema_version > SCHEMA_VERSION) return undefined;
  if (raw.kind !== kind || typeof event_id !== 'string' || !UUID.test(event_id)) return undefined;
  if (typeof project_id !== 'string' || project_id.length < 1 || typeof received_at !== 'string' || !ISO_DATETIME.test(received_at)) return undefined;
  const data = fastLogEvent(raw.data);
  if (!data) return undefined;
  return { schema_version, event_id, kind, project_id, received_at, data: data as EventDataByKind[K] };
}

function describe(e: z.ZodError): string {
  return e.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
}
