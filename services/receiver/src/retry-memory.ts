import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { EventKind } from '@devtrail/kinds';

// A 503 that was sent on (docs/api.md, "A 503 retried"): a request answered 503 after its
// message was handed to Kafka may be written anyway (the acknowledgement was lost or late). Its
// retry, without an Idempotency-Key, would be new events with new ids, stored twice. So the
// receiver remembers such a request by a hash of its project, route and body, for the retry
// window: the first event id of each kind (unkeyed ids count up from it, contract
// event-ids.ts) and its receive time (the "now" of its defaults and its received_at). A retry
// of the same request gets them back, so it writes the same events, which every table
// de-duplicates by event id (docs/topics.md, "Delivery guarantees"). Once a retry is
// acknowledged the request is forgotten: a later identical body is a new request.
// Bounded: at most `max` requests, the oldest forgotten first; nothing is hashed while
// nothing is remembered.

export interface Remembered {
  /** The first attempt's receive time (ISO). */
  receivedAt: string;
  /** The first event id of each kind the request carried. */
  firsts: Partial<Record<EventKind, string>>;
}

interface Entry extends Remembered {
  expiresAt: number;
}

export const RETRY_MEMORY_MAX = 100_000;

/** The body's bytes as read: JSON (body.ts keeps them), protobuf and drain bodies (kept as a Buffer). */
const bytesOf = (request: FastifyRequest): Buffer | undefined => request.rawBody ?? (Buffer.isBuffer(request.body) ? request.body : undefined);

export class RetryMemory {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly windowMs: number,
    private readonly max = RETRY_MEMORY_MAX,
    private readonly now: () => number = Date.now,
  ) {}

  /** Requests remembered (the receiver hashes a request's body only while this is above 0). */
  get size(): number {
    return this.entries.size;
  }

  /** The request's key: a hash of its project, route and body; undefined when its body is not at hand. */
  keyOf(request: FastifyRequest): string | undefined {
    const body = bytesOf(request);
    if (!body || !request.grant) return undefined;
    return createHash('sha256').update(`${request.grant.projectId}\n${request.routeOptions.url}\n`).update(body).digest('hex');
  }

  /** What a first attempt of this request left, while within the window. */
  recall(key: string): Remembered | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt > this.now()) return e;
    this.entries.delete(key);
    return undefined;
  }

  remember(key: string, r: Remembered): void {
    if (this.windowMs <= 0) return;
    this.entries.delete(key); // re-inserted last: the newest
    this.entries.set(key, { ...r, expiresAt: this.now() + this.windowMs });
    this.prune();
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  /** Drops what expired (oldest first, Map order) and, past `max`, the oldest. */
  private prune(): void {
    const now = this.now();
    for (const [key, e] of this.entries) {
      if (this.entries.size <= this.max && e.expiresAt > now) break;
      this.entries.delete(key);
    }
  }
}
