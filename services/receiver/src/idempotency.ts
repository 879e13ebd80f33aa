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
const KEY_TIME_PAST_MS = 24 * 3600 * 1000;
const KEY_TIME_FUTURE_MS = 60 * 1000;

/**
 * When the key is a UUID version 7 (as @devtrail/sdk sends), the time it was made, which
 * then stands for "now" in the request's defaults (an error's or LLM record's timestamp, a
 * log's without one), so a retry stores exactly the same rows. Only within a day before
 * and a minute after the receive time; otherwise undefined.
 */
export function keyTime(key: string, nowMs: number): number | undefined {
  if (!UUID_V7.test(key)) return undefined;
  const ms = Number.parseInt(key.slice(0, 8) + key.slice(9, 13), 16);
  return ms >= nowMs - KEY_TIME_PAST_MS && ms <= nowMs + KEY_TIME_FUTURE_MS ? ms : undefined;
}
