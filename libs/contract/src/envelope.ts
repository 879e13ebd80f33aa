import { z } from 'zod';
import { EVENT_KINDS, isPlainObject, ISO_DATETIME, kindOf, KINDS, MAX_RETENTION_DAYS, type EventDataByKind, type EventKind } from '@devtrail/kinds';
import { DecodeError, UnsupportedVersion } from './decode-error.ts';
import { sequentialIds, UUID } from './event-ids.ts';

// Kafka messages on a kind's topic (docs/topics.md), as JSON envelopes. Version 2, written by
// receivers: one message per accepted request and kind, carrying that request's events, each
// with its own event id. Version 1 (one message per event, written by older receivers) is
// still read, so old and new receivers can run side by side during a deploy. Version 3, a
// request as it was sent with its facts in headers, is as-sent.ts; decode-message.ts reads all three.

/** The JSON envelope receivers write (version 3 is not one: as-sent.ts). */
export const SCHEMA_VERSION = 2;
/** The newest message version this build reads and writes (docs/topics.md, "Messages"). */
export const NEWEST_VERSION = 3;

/** One event as a consumer sees it, whichever version of message carried it. */
export interface Envelope<K extends EventKind = EventKind> {
  schema_version: number;
  event_id: string;
  kind: K;
  project_id: string;
  received_at: string;
  /** Days the store keeps the event (the project's setting when it was received); absent: the consumer's RETENTION_DAYS. */
  retention_days?: number;
  data: EventDataByKind[K];
  /**
   * The event's data as the message carried it, fields this build does not know included (a
   * newer receiver's added fields: docs/topics.md, "Evolution"); `data` holds the known ones, typed.
   */
  raw?: Record<string, unknown>;
}

/** One event inside a version-2 message. */
export interface BatchEvent<K extends EventKind = EventKind> {
  event_id: string;
  data: EventDataByKind[K];
}

/** The value of a version-2 message. */
export interface BatchEnvelope<K extends EventKind = EventKind> {
  schema_version: 2;
  kind: K;
  project_id: string;
  received_at: string;
  /** Days the store keeps these events (docs/data.md); written since per-project retention, optional to read. */
  retention_days?: number;
  events: Array<BatchEvent<K>>;
}

/** What an outside consumer can route or filter on without parsing the value. */
export const HEADERS = {
  schemaVersion: 'dt-schema-version',
  kind: 'dt-kind',
  projectId: 'dt-project-id',
  eventCount: 'dt-event-count',
  contentType: 'content-type',
  /** Version 1 only: the message's one event id. */
  eventId: 'dt-event-id',
  /** Version 3: the facts a version-2 value carries (as-sent.ts). */
  receivedAt: 'dt-received-at',
  eventIds: 'dt-event-ids',
  retentionDays: 'dt-retention-days',
  scrub: 'dt-scrub',
} as const;

export interface EncodedMessage {
  key: string | null;
  value: Buffer;
  headers: Record<string, string>;
}

/** The request's events with the event ids the receiver assigns: `ids` when given (idempotency.ts), a random sequence otherwise (event-ids.ts). */
export function newEvents<K extends EventKind>(data: Array<EventDataByKind[K]>, ids: string[] = sequentialIds(data.length)): Array<BatchEvent<K>> {
  return data.map((d, i) => ({ event_id: ids[i], data: d }));
}

/**
 * Partition key of a batch: the kind's partition key field when every event shares its
 * value (a trace's spans, one group's errors: kept in order on one partition); otherwise
 * the first event's id, which spreads batches over the partitions (a hot project is not
 * pinned to one) and which a retry with an Idempotency-Key shares (its events keep their
 * ids), so both copies land on one partition and per-partition de-duplication is enough
 * (docs/topics.md, "Delivery guarantees").
 */
export function batchKey<K extends EventKind>(kind: K, events: Array<BatchEvent<K>>): string | null {
  if (events.length === 0) return null;
  const field = KINDS[kind].partitionKey;
  const first = field ? (events[0].data as Record<string, unknown>)[field] : undefined;
  if (typeof first === 'string' && first !== '' && events.every((e) => (e.data as Record<string, unknown>)[field!] === first)) return first;
  return events[0].event_id;
}

/** The headers of a version-2 message of `count` events. */
export function batchHeaders(kind: EventKind, projectId: string, count: number): Record<string, string> {
  return {
    [HEADERS.schemaVersion]: String(SCHEMA_VERSION),
    [HEADERS.kind]: kind,
    [HEADERS.projectId]: projectId,
    [HEADERS.eventCount]: String(count),
    [HEADERS.contentType]: 'application/json',
  };
}

/** One version-2 message: a request's events of one kind. */
export function encodeBatch<K extends EventKind>(kind: K, projectId: string, receivedAt: string, events: Array<BatchEvent<K>>, retentionDays?: number): EncodedMessage {
  const value: BatchEnvelope<K> = { schema_version: SCHEMA_VERSION, kind, project_id: projectId, received_at: receivedAt, retention_days: retentionDays, events };
  return { key: batchKey(kind, events), value: Buffer.from(JSON.stringify(value)), headers: batchHeaders(kind, projectId, events.length) };
}

/** What one message holds: its readable events, and those of its events that cannot be read. */
export interface DecodedMessage<K extends EventKind = EventKind> {
  events: Array<Envelope<K>>;
  rejected: Array<{ event: unknown; reason: string }>;
  /** Re-encodes one event of this message as a message of its own (a dead letter's value). */
  alone(event: unknown): Buffer;
  /** The headers of such a message, from the source message's (absent: the source's, the letter being the message itself). */
  aloneHeaders?(source: Record<string, string>): Record<string, string>;
}

export interface DecodeOptions {
  /** Give each event `raw`, its data as the message carried it (what the consumer kit hands over). */
  raw?: boolean;
}

/** One event of a version-2 value, as its own version-2 message. */
export function aloneV2(kind: EventKind, top: { project_id: string; received_at: string; retention_days?: number }, event: unknown): Buffer {
  const { project_id, received_at, retention_days } = top;
  return Buffer.from(JSON.stringify({ schema_version: SCHEMA_VERSION, kind, project_id, received_at, retention_days, events: [event] }));
}

/**
 * Decodes a JSON envelope (version 1 or 2) of the expected kind. A message that cannot be
 * read as a whole (not JSON, not an envelope, another kind, a version newer than this
 * build knows) throws DecodeError; in a readable batch, each event that fails its
 * schema is `rejected` on its own and the others are returned. Unknown fields are ignored.
 */
export function decodeJsonEnvelope<K extends EventKind>(kind: K, value: Buffer | string | null, opts: DecodeOptions = {}): DecodedMessage<K> {
  const raw = parseValue(value);
  const version = isPlainObject(raw) ? raw.schema_version : undefined;
  if (version === 1) {
    const env = decodeV1(kind, raw);
    if (opts.raw) env.raw = (raw as { data: Record<string, unknown> }).data;
    return { events: [env], rejected: [], alone: () => Buffer.from(typeof value === 'string' ? value : value!) };
  }
  if (version !== SCHEMA_VERSION)
    throw typeof version === 'number' && version > SCHEMA_VERSION ? new UnsupportedVersion(version) : new DecodeError('bad envelope: schema_version');
  const top = raw as Record<string, unknown>;
  // The checks batchShape makes, by hand on the hot path; zod only words the refusal.
  const { project_id, received_at, retention_days, events } = top;
  const wellFormed =
    typeof project_id === 'string' &&
    project_id.length > 0 &&
    typeof received_at === 'string' &&
    ISO_DATETIME.test(received_at) &&
    (retention_days === undefined || isRetention(retention_days)) &&
    Array.isArray(events) &&
    (EVENT_KINDS as unknown[]).includes(top.kind);
  if (!wellFormed) {
    const why = batchShape.safeParse(raw);
    throw new DecodeError(`bad envelope: ${why.success ? 'malformed' : describe(why.error)}`);
  }
  if (top.kind !== kind) throw new DecodeError(`expected kind ${kind}, got ${top.kind}`);
  const out: DecodedMessage<K> = {
    events: [],
    rejected: [],
    alone: (event) => aloneV2(kind, top as { project_id: string; received_at: string; retention_days?: number }, event),
    aloneHeaders: (source) => ({ ...source, [HEADERS.eventCount]: '1' }),
  };
  for (const e of events as unknown[]) {
    const event_id = isPlainObject(e) ? e.event_id : undefined;
    if (typeof event_id !== 'string' || !UUID.test(event_id)) {
      out.rejected.push({ event: e, reason: 'bad event: event_id: Invalid uuid' });
      continue;
    }
    const raw = (e as { data?: unknown }).data;
    const data = eventData(kind, raw);
    if (typeof data === 'string') out.rejected.push({ event: e, reason: `bad ${kind} data: ${data}` });
    else {
      const env: Envelope<K> = { schema_version: SCHEMA_VERSION, event_id, kind, project_id, received_at, retention_days: retention_days as number | undefined, data };
      if (opts.raw) env.raw = raw as Record<string, unknown>;
      out.events.push(env);
    }
  }
  return out;
}

export function parseValue(value: Buffer | string | null): unknown {
  if (value === null) throw new DecodeError('empty message value');
  try {
    return JSON.parse(typeof value === 'string' ? value : value.toString('utf8'));
  } catch {
    throw new DecodeError('message value is not JSON');
  }
}

// The top of a version-2 value: events are checked one by one (eventData).
const batchShape = z.object({
  schema_version: z.literal(SCHEMA_VERSION),
  kind: z.enum(EVENT_KINDS as [EventKind, ...EventKind[]]),
  project_id: z.string().min(1),
  received_at: z.string().datetime({ offset: true }),
  retention_days: z.number().int().min(1).max(MAX_RETENTION_DAYS).optional(),
  events: z.array(z.unknown()),
});

const isRetention = (v: unknown) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_RETENTION_DAYS;

/** An event's data validated against its kind's schema (zod-free where the kind's fields allow); a string says why not. */
export function eventData<K extends EventKind>(kind: K, data: unknown): EventDataByKind[K] | string {
  const k = kindOf(kind);
  const fast = k.fastEvent(data);
  if (fast) return fast as EventDataByKind[K];
  const parsed = k.event.safeParse(data);
  return parsed.success ? (parsed.data as EventDataByKind[K]) : describe(parsed.error);
}

// --- version 1: one event per message (receivers before schema version 2) ------------

const v1Shape = z.object({
  schema_version: z.literal(1),
  event_id: z.string().uuid(),
  kind: z.enum(EVENT_KINDS as [EventKind, ...EventKind[]]),
  project_id: z.string().min(1),
  received_at: z.string().datetime({ offset: true }),
  data: z.unknown(),
});

function decodeV1<K extends EventKind>(kind: K, raw: unknown): Envelope<K> {
  const fast = fastV1(kind, raw);
  if (fast) return fast;
  const env = v1Shape.safeParse(raw);
  if (!env.success) throw new DecodeError(`bad envelope: ${describe(env.error)}`);
  if (env.data.kind !== kind) throw new DecodeError(`expected kind ${kind}, got ${env.data.kind}`);
  const data = eventData(kind, env.data.data);
  if (typeof data === 'string') throw new DecodeError(`bad ${kind} data: ${data}`);
  return { ...env.data, kind, data };
}

/** The zod path's result for a well-formed version-1 message without running zod; undefined otherwise. */
function fastV1<K extends EventKind>(kind: K, raw: unknown): Envelope<K> | undefined {
  if (!isPlainObject(raw)) return undefined;
  const { schema_version, event_id, project_id, received_at } = raw;
  if (schema_version !== 1) return undefined;
  if (raw.kind !== kind || typeof event_id !== 'string' || !UUID.test(event_id)) return undefined;
  if (typeof project_id !== 'string' || project_id.length < 1 || typeof received_at !== 'string' || !ISO_DATETIME.test(received_at)) return undefined;
  const data = kindOf(kind).fastEvent(raw.data);
  if (!data) return undefined;
  return { schema_version, event_id, kind, project_id, received_at, data: data as EventDataByKind[K] };
}

export function describe(e: z.ZodError): string {
  return e.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/** The top of a message of each version, as decoded above (json-schema.ts publishes them with each kind's event). */
export const MESSAGE_SHAPES = { 1: v1Shape, 2: batchShape } as const;
