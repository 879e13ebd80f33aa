import type { FastifyReply, FastifyRequest } from 'fastify';
import { encodeBatch, newEvents, type Topics } from '@devtrail/contract';
import { tooLarge } from '@devtrail/http';
import type { EventDataByKind, EventKind } from '@devtrail/kinds';
import { KAFKA_MAX_MESSAGE_BYTES } from '@devtrail/message-log';
import { IDEMPOTENCY_HEADER, idempotencyKeyHash, idempotencyKeyOf, idempotentEventIds, keyTime } from './idempotency.ts';
import type { ProduceQueue } from './produce-queue.ts';
import type { KeyCache } from './auth/key-cache.ts';
import type { RateLimiter } from './auth/rate-limiter.ts';
import type { IngestCounters } from './ingest-counters.ts';

// The accept step every way in shares (a kind's route, the drain, OTLP): when the request
// arrived and what "now" is for its defaults (received), then its events of one kind as
// one Kafka message, answered only once Kafka acknowledged it (produce).

export interface IngestDeps {
  keys: KeyCache;
  limiter: RateLimiter;
  topics: Topics;
  queue: ProduceQueue;
  counters: IngestCounters;
  /** The first receive time of a project's Idempotency-Key (hashed), recording `now` if it is new (relational idempotency-repo.ts). */
  firstSeen(projectId: string, keyHash: string, now: Date): Promise<Date>;
}

export interface Received {
  /** When the request arrived (its deadline counts from here), epoch ms. */
  arrivedAt: number;
  /** The envelope's received_at: when the request first arrived (idempotency.ts). */
  receivedAt: string;
  /** "Now" in the defaults: the same first receive time. */
  defaultsTime: string;
  idempotencyKey?: string;
}

/**
 * When the request arrived and, with an Idempotency-Key, when it first did: a UUIDv7 key's
 * own time, or the time the receivers remembered for the key (one upsert; PostgreSQL out: 503,
 * rather than a retry stored twice).
 */
export async function received(deps: Pick<IngestDeps, 'firstSeen'>, request: FastifyRequest, reply: FastifyReply): Promise<Received> {
  const arrivedAt = Date.now() - reply.elapsedTime;
  const idempotencyKey = idempotencyKeyOf(request.headers[IDEMPOTENCY_HEADER]);
  let first = arrivedAt;
  if (idempotencyKey) {
    first = keyTime(idempotencyKey, arrivedAt) ?? (await deps.firstSeen(request.grant!.projectId, idempotencyKeyHash(idempotencyKey), new Date(arrivedAt))).getTime();
  }
  const firstAt = new Date(first).toISOString();
  return { arrivedAt, receivedAt: firstAt, defaultsTime: firstAt, idempotencyKey };
}

/** The request's events, each with its own id, as one message on the kind's topic; resolves once Kafka acknowledged it. */
export async function produce<K extends EventKind>(deps: IngestDeps, kind: K, request: FastifyRequest, at: Received, events: Array<EventDataByKind[K]>) {
  const projectId = request.grant!.projectId;
  const ids = at.idempotencyKey ? idempotentEventIds(projectId, at.idempotencyKey, request.bodyDigest ?? '', kind, events.length) : undefined;
  const message = encodeBatch(kind, projectId, at.receivedAt, newEvents(events, ids));
  // Normalising can make a body longer (an invalid UTF-8 byte becomes a 3-byte U+FFFD).
  if (message.value.length > KAFKA_MAX_MESSAGE_BYTES) throw tooLarge(KAFKA_MAX_MESSAGE_BYTES, 'as a Kafka message');
  await deps.queue.enqueue(deps.topics.of(kind), [message], events.length, at.arrivedAt);
  deps.counters.onAccepted(kind, events.length);
}

export type EventsByKind = { [K in EventKind]?: Array<EventDataByKind[K]> };

/** Every kind's events of one request, each kind one message, all acknowledged before the answer. */
export async function produceAll(deps: IngestDeps, request: FastifyRequest, at: Received, events: EventsByKind): Promise<void> {
  await Promise.all((Object.keys(events) as EventKind[]).map((kind) => produce(deps, kind, request, at, events[kind] as never)));
}
