import { createHash } from 'node:crypto';
import { badRequest } from '@devtrail/http';

// Requests made safe to retry (the IETF draft "The Idempotency-Key HTTP Header Field"):
// with an Idempotency-Key, the receiver derives each event's id from the project, the key,
// the request body and the event's place in it, so a retry of the same request writes the
// same event ids, and de-duplication by event id makes it invisible in every read, count
// and error group. Reusing a key for a different body gives different ids: different
// events are never merged. Without the header, ids are random (each request is new).

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const KEY_SYNTAX = /^[\x21-\x7e]+$/; // visible ASCII, as a header value without quoting

/** The request's Idempotency-Key, undefined when absent; 400 when it is not a usable key. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  const trimmed = key.trim().replace(/^"(.+)"$/, '$1'); // the draft sends a structured-field string, quoted
  if (trimmed.length === 0 || trimmed.length > MAX_IDEMPOTENCY_KEY_LENGTH || !KEY_SYNTAX.test(trimmed)) {
    throw badRequest(`Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters`, 'a key such as a UUID', 'invalid key', ['Idempotency-Key']);
  }
  return trimmed;
}

/** SHA-256 of the body as received (after decompression). */
export function bodyDigest(body: string | Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

/** Name-based UUIDs (RFC 9562 version 8, SHA-256) for the events of one idempotent request. */
export function idempotentEventIds(projectId: string, key: string, digest: string, kind: string, count: number): string[] {
  const ids = new Array<string>(count);
  const base = `${projectId}\n${key}\n${digest}\n${kind}\n`;
  for (let i = 0; i < count; i++) {
    const h = createHash('sha256')
      .update(base + i)
      .digest();
    h[6] = (h[6] & 0x0f) | 0x80; // version 8
    h[8] = (h[8] & 0x3f) | 0x80; // variant 10
    const x = h.toString('hex', 0, 16);
    ids[i] = `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
  }
  return ids;
}

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** How long a retry is guaranteed to store nothing new (docs/api.md, Idempotency-Key). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
/** How long the receivers remember a key's first receive time: the window, and an hour to spare. */
export const IDEMPOTENCY_RETENTION_MS = IDEMPOTENCY_WINDOW_MS + 3600 * 1000;
const KEY_TIME_FUTURE_MS = 60 * 1000;

// A retry must store exactly the same rows as the first request: the same event ids, and
// the same "now" wherever the request leaves a time to the receiver (an error's or LLM
// record's timestamp, a log's without one, and the received_at every row is partitioned by).
// That "now" is the request's first receive time: a UUIDv7 key (what @devtrail/sdk sends)
// carries it (keyTime, no round trip); for any other key the receivers remember it in
// PostgreSQL for IDEMPOTENCY_RETENTION_MS (relational-store idempotency-repo.ts).

/**
 * When the key is a UUID version 7, the time it was made. Only within the window before and
 * a minute after the receive time; otherwise undefined (the key is then remembered instead).
 */
export function keyTime(key: string, nowMs: number): number | undefined {
  if (!UUID_V7.test(key)) return undefined;
  const ms = Number.parseInt(key.slice(0, 8) + key.slice(9, 13), 16);
  return ms >= nowMs - IDEMPOTENCY_WINDOW_MS && ms <= nowMs + KEY_TIME_FUTURE_MS ? ms : undefined;
}

/** What the relational store keeps of a key: its SHA-256 (a key is up to 255 characters a client chose). */
export function idempotencyKeyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
