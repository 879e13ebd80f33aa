import { ISO_DATETIME, kindOf, MAX_RETENTION_DAYS, type EventDataByKind, type EventKind } from '@devtrail/kinds';
import { DecodeError } from './decode-error.ts';
import { eventIdsHeader, idsOfHeader } from './event-ids.ts';
import { aloneV2, batchHeaders, describe, HEADERS, parseValue, type DecodedMessage, type DecodeOptions, type EncodedMessage, type Envelope } from './envelope.ts';

// Message version 3 (docs/topics.md, "Version 3"): a request as it was sent to its kind's
// route, the body's bytes untouched, and the facts a version-2 envelope would carry in the
// headers: project, kind, received-at (the "now" of the request's defaults), event ids,
// retention, and the scrubber's certificate that scrubbing changes nothing in it
// (docs/data.md#scrubbing). The receiver writes one only when the kind's checks leave the
// request as sent (kind.ts `asSent`) and the scrubber certified it; anything else is version 2.
// A consumer makes the request's events with the kind's own fast path, as the receiver did.

export const AS_SENT_VERSION = 3;

/** The headers only a version-3 message has: a dead letter re-encoded as version 2 leaves them out. */
const AS_SENT_ONLY = [HEADERS.receivedAt, HEADERS.eventIds, HEADERS.retentionDays, HEADERS.scrub];

/** What the scrubber's certificate starts with (data-policy certificate.ts writes it). */
export const CERTIFIED = 'unchanged';

export interface AsSent {
  kind: EventKind;
  projectId: string;
  receivedAt: string;
  /** The body's bytes as the receiver read them (after any Content-Encoding). */
  body: Buffer;
  /** The request's event ids, in order (event-ids.ts). */
  ids: readonly string[];
  /** True when `ids` were made by sequentialIds: the header names the first alone. */
  sequence?: boolean;
  retentionDays?: number;
  /** The scrubber's certificate (`unchanged …`). */
  certificate: string;
  /** The message's key (envelope.ts batchKey of the request's events). */
  key: string | null;
}

/** One version-3 message: the request's body as sent, its facts in headers. */
export function encodeAsSent(m: AsSent): EncodedMessage {
  const headers: Record<string, string> = {
    [HEADERS.schemaVersion]: String(AS_SENT_VERSION),
    [HEADERS.kind]: m.kind,
    [HEADERS.projectId]: m.projectId,
    [HEADERS.eventCount]: String(m.ids.length),
    [HEADERS.contentType]: 'application/json',
    [HEADERS.receivedAt]: m.receivedAt,
    [HEADERS.eventIds]: eventIdsHeader(m.ids, m.sequence),
    [HEADERS.scrub]: m.certificate,
  };
  if (m.retentionDays !== undefined) headers[HEADERS.retentionDays] = String(m.retentionDays);
  return { key: m.key, value: m.body, headers };
}

/** The facts of a version-3 message, from its headers; DecodeError when one is missing or malformed. */
function factsOf(kind: EventKind, headers: Record<string, string>) {
  const projectId = headers[HEADERS.projectId];
  const receivedAt = headers[HEADERS.receivedAt];
  const retention = headers[HEADERS.retentionDays];
  const count = Number(headers[HEADERS.eventCount]);
  if (headers[HEADERS.kind] !== kind) throw new DecodeError(`expected kind ${kind}, got ${headers[HEADERS.kind]}`);
  if (!projectId) throw new DecodeError('bad envelope: dt-project-id header missing');
  if (!receivedAt || !ISO_DATETIME.test(receivedAt)) throw new DecodeError('bad envelope: dt-received-at header missing or not a time');
  if (!Number.isInteger(count) || count < 0) throw new DecodeError('bad envelope: dt-event-count header missing or not a count');
  const retentionDays = retention === undefined ? undefined : Number(retention);
  if (retentionDays !== undefined && !(Number.isInteger(retentionDays) && retentionDays >= 1 && retentionDays <= MAX_RETENTION_DAYS))
    throw new DecodeError('bad envelope: dt-retention-days header');
  // Written only under the scrubber's certificate: a message without one was never checked.
  if (!headers[HEADERS.scrub]?.startsWith(CERTIFIED)) throw new DecodeError('bad envelope: no scrubbing certificate (dt-scrub)');
  return { projectId, receivedAt, retentionDays, count };
}

/**
 * The events of a version-3 message, made from the request by its kind's own route logic (the
 * fast path, else the schema), with the headers' ids. A request that cannot be read as a whole
 * is searched record by record where the kind can split it: each refused record is `rejected`
 * on its own. Unknown fields of a record reach `raw` (docs/topics.md, "Evolution").
 */
export function decodeAsSent<K extends EventKind>(kind: K, value: Buffer | string | null, headers: Record<string, string>, opts: DecodeOptions = {}): DecodedMessage<K> {
  const facts = factsOf(kind, headers);
  const k = kindOf(kind);
  if (!k.asSent) throw new DecodeError(`no version-3 form for kind ${kind}`);
  const body = parseValue(value);
  const top = { project_id: facts.projectId, received_at: facts.receivedAt, retention_days: facts.retentionDays };
  const out: DecodedMessage<K> = {
    events: [],
    rejected: [],
    alone: (event) => aloneV2(kind, top, event),
    aloneHeaders: (source) => {
      const h = { ...source };
      for (const name of AS_SENT_ONLY) delete h[name];
      return { ...h, ...batchHeaders(kind, facts.projectId, 1) };
    },
  };
  // One slot per record of the request, in order: its data, or why it was refused.
  const slots: Array<{ data: unknown; record: unknown } | { refused: string; record: unknown }> = [];
  const records = (k.batchField ? (body as Record<string, unknown> | null)?.[k.batchField] : undefined) as unknown[] | undefined;
  const fast = k.fastEvents?.(body, facts.receivedAt);
  const parsed = fast ? undefined : k.request.safeParse(body);
  const whole = fast ?? (parsed?.success ? k.toEvents(parsed.data, facts.receivedAt) : undefined);
  if (whole) whole.forEach((data, i) => slots.push({ data, record: records?.[i] }));
  else if (k.split && Array.isArray(records)) {
    for (const part of k.split(body)) {
      const one = k.request.safeParse(part.body);
      const record = (part.body as Record<string, unknown>)[k.batchField!];
      if (one.success) slots.push({ data: k.toEvents(one.data, facts.receivedAt)[0], record: (record as unknown[])[0] });
      else slots.push({ refused: describe(one.error), record: (record as unknown[])[0] });
    }
  } else throw new DecodeError(`bad ${kind} request: ${parsed && !parsed.success ? describe(parsed.error) : 'unreadable'}`);
  if (slots.length !== facts.count) throw new DecodeError(`bad envelope: dt-event-count says ${facts.count}, the request holds ${slots.length}`);
  const ids = idsOfHeader(headers[HEADERS.eventIds], facts.count);
  slots.forEach((slot, i) => {
    const event_id = ids[i];
    if ('refused' in slot) {
      out.rejected.push({ event: { event_id, data: slot.record }, reason: `bad ${kind} data: ${slot.refused}` });
      return;
    }
    const data = slot.data as EventDataByKind[K];
    const env: Envelope<K> = { schema_version: AS_SENT_VERSION, event_id, kind, project_id: facts.projectId, received_at: facts.receivedAt, data };
    if (facts.retentionDays !== undefined) env.retention_days = facts.retentionDays;
    if (opts.raw) env.raw = rawOf(data, slot.record);
    out.events.push(env);
  });
  return out;
}

/** The event's data with its record's fields this build does not know beside it. */
function rawOf(data: unknown, record: unknown): Record<string, unknown> {
  const raw = { ...(data as Record<string, unknown>) };
  if (record !== null && typeof record === 'object' && !Array.isArray(record)) for (const [k, v] of Object.entries(record)) if (!(k in raw)) raw[k] = v;
  return raw;
}
