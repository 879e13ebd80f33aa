import { randomUUID } from 'node:crypto';
import { DecodeError } from './decode-error.ts';

// A request's event ids (docs/topics.md, "Event ids"). Without an Idempotency-Key they are a
// sequence: the first a random UUID, each next one the same UUID with its last 12 hex digits
// (48 random bits, the node field) counted up by one, modulo 2^48. So a message can carry a
// request's ids as one UUID in a header (version 3), and a receiver can reuse them all by
// remembering the first (a 503 retried, docs/api.md). With an Idempotency-Key they are derived
// one by one (the receiver's idempotency.ts) and a version-3 message lists them.

const TAIL = 12;
const MOD = 2 ** 48;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The regex z.string().uuid() tests (zod 3). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `count` ids counting up from `first` (a fresh random UUID by default). */
export function sequentialIds(count: number, first: string = randomUUID()): string[] {
  const ids = new Array<string>(count);
  if (count === 0) return ids;
  ids[0] = first;
  const head = first.slice(0, first.length - TAIL);
  const start = Number.parseInt(first.slice(-TAIL), 16);
  // The tail as two numbers a 32-bit mask can take apart: bits 32-47, and bits 0-31.
  for (let i = 1; i < count; i++) {
    const n = (start + i) % MOD;
    const hi = Math.floor(n / 2 ** 32);
    const lo = n % 2 ** 32;
    ids[i] = head + HEX[hi >>> 8] + HEX[hi & 255] + HEX[lo >>> 24] + HEX[(lo >>> 16) & 255] + HEX[(lo >>> 8) & 255] + HEX[lo & 255];
  }
  return ids;
}

/** Whether `ids` are the sequence that starts at their first. */
function isSequence(ids: readonly string[]): boolean {
  const head = ids[0].slice(0, ids[0].length - TAIL);
  const start = Number.parseInt(ids[0].slice(-TAIL), 16);
  for (let i = 1; i < ids.length; i++) {
    const id = ids[i];
    if (!id.startsWith(head) || Number.parseInt(id.slice(-TAIL), 16) !== (start + i) % MOD) return false;
  }
  return true;
}

/**
 * The `dt-event-ids` header: the first id when the ids are its sequence (or there is one), else
 * every id, comma-separated. `sequence`: the caller made them with sequentialIds (no need to look).
 */
export function eventIdsHeader(ids: readonly string[], sequence = false): string {
  return ids.length <= 1 || sequence || isSequence(ids) ? (ids[0] ?? '') : ids.join(',');
}

/** The ids a `dt-event-ids` header names for `count` events; DecodeError when it names another number or a bad id. */
export function idsOfHeader(header: string | undefined, count: number): string[] {
  if (header === undefined || header === '') throw new DecodeError('bad envelope: dt-event-ids header missing');
  const listed = header.split(',');
  if (!listed.every((id) => UUID.test(id))) throw new DecodeError('bad envelope: dt-event-ids: not UUIDs');
  if (listed.length === count) return listed;
  if (listed.length === 1) return sequentialIds(count, listed[0]);
  throw new DecodeError(`bad envelope: dt-event-ids names ${listed.length} ids for ${count} events`);
}
