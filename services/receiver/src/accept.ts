import type { FastifyReply, FastifyRequest } from 'fastify';
import { batchKey, encodeAsSent, encodeBatch, newEvents, sequentialIds, type Topics } from '@devtrail/contract';
import { tooLarge } from '@devtrail/http';
import { scrubBudget, type ScrubBudget } from '@devtrail/data-policy';
import type { ErrorEvent, EventDataByKind, EventKind } from '@devtrail/kinds';
import { KAFKA_MAX_MESSAGE_BYTES } from '@devtrail/message-log';
import { IDEMPOTENCY_HEADER, idempotencyKeyHash, idempotencyKeyOf, idempotentEventIds, keyTime } from './idempotency.ts';
import type { ProduceQueue } from './produce-queue.ts';
import type { KeyCache } from './auth/key-cache.ts';
import type { RateLimiter } from './auth/rate-limiter.ts';
import type { IngestCounters } from './ingest-counters.ts';
import { admitAll, giveBack, scrub, type Admitted } from './data/admit.ts';
import type { GrantPolicies } from './data/grant-policy.ts';
import type { EventQuotas } from './data/event-quotas.ts';
import type { GroupResolver } from './group-resolver.ts';
import { bytesAsSent } from './as-sent.ts';
import type { Remembered, RetryMemory } from './retry-memory.ts';
import { SentUnacknowledged } from './produce-queue.ts';

// The accept step every way in shares (a kind's route, the drain, OTLP): when the request
// arrived and what "now" is for its defaults (received), then its events of one kind as
// one Kafka message, answered only once Kafka acknowledged it (produce). On the way the
// project's data policy applies (data/admit.ts, docs/data.md): sampling, quotas (429),
// scrubbing, and the retention the store keeps the events for.

export interface IngestDeps {
  keys: KeyCache;
  limiter: RateLimiter;
  topics: Topics;
  queue: ProduceQueue;
  counters: IngestCounters;
  /** The first receive time of a project's Idempotency-Key (hashed), recording `now` if it is new (relational idempotency-repo.ts). */
  firstSeen(projectId: string, keyHash: string, now: Date): Promise<Date>;
  policies: GrantPolicies;
  quotas: EventQuotas;
  /** The group each error event joins (group-resolver.ts). */
  groups: GroupResolver;
  /** Requests answered 503 after they were sent on, by their hash: their ids for a retry (retry-memory.ts). */
  retries: RetryMemory;
}

export interface Received {
  /** When the request arrived (its deadline counts from here), epoch ms. */
  arrivedAt: number;
  /** The envelope's received_at: when the request first arrived (idempotency.ts). */
  receivedAt: string;
  /** "Now" in the defaults: the same first receive time. */
  defaultsTime: string;
  idempotencyKey?: string;
  /** A retry of a request answered 503 after it was sent on (retry-memory.ts): its key, and what the first attempt left. */
  retry?: { key: string; first: Remembered };
}

/**
 * When the request arrived and, with an Idempotency-Key, when it first did: a UUIDv7 key's
 * own time, or the time the receivers remembered for the key (one upsert; PostgreSQL out: 503,
 * rather than a retry stored twice). Without a key, a retry of a request this receiver answered
 * 503 after sending it on takes the first attempt's time (and, in produceAll, its ids).
 */
export async function received(deps: Pick<IngestDeps, 'firstSeen' | 'retries'>, request: FastifyRequest, reply: FastifyReply): Promise<Received> {
  const arrivedAt = Date.now() - reply.elapsedTime;
  const idempotencyKey = idempotencyKeyOf(request.headers[IDEMPOTENCY_HEADER]);
  let first = arrivedAt;
  let retry: Received['retry'];
  if (idempotencyKey) {
    first = keyTime(idempotencyKey, arrivedAt) ?? (await deps.firstSeen(request.grant!.projectId, idempotencyKeyHash(idempotencyKey), new Date(arrivedAt))).getTime();
  } else if (deps.retries.size > 0) {
    const key = deps.retries.keyOf(request);
    const remembered = key === undefined ? undefined : deps.retries.recall(key);
    if (remembered) {
      retry = { key: key!, first: remembered };
      first = Date.parse(remembered.receivedAt);
    }
  }
  const firstAt = new Date(first).toISOString();
  return { arrivedAt, receivedAt: firstAt, defaultsTime: firstAt, idempotencyKey, retry };
}

/**
 * The request's events, each with its own id, as one message on the kind's topic; resolves once
 * Kafka acknowledged it. `sent`: the parsed body, when the kind's fast path made the events from
 * it whole: then the request may go as sent (message version 3, as-sent.ts).
 */
export async function produce<K extends EventKind>(deps: IngestDeps, kind: K, request: FastifyRequest, at: Received, events: Array<EventDataByKind[K]>, sent?: unknown) {
  await produceAll(deps, request, at, { [kind]: events } as EventsByKind, sent === undefined ? undefined : { kind, body: sent });
}

export type EventsByKind = { [K in EventKind]?: Array<EventDataByKind[K]> };

/** A request whose one kind's events its fast path made from the whole body (produce). */
interface SentBody {
  kind: EventKind;
  body: unknown;
}

/** Every kind's events of one request, each kind one message, all acknowledged before the answer; all admitted by the quotas or none. */
export async function produceAll(deps: IngestDeps, request: FastifyRequest, at: Received, events: EventsByKind, sent?: SentBody): Promise<void> {
  const grant = request.grant!;
  // Errors join their group first (a merged group's target, a previous rule's group): the answer names it.
  if (events.error?.length) await deps.groups.resolve(grant.projectId, events.error as ErrorEvent[]);
  const firsts: Partial<Record<EventKind, string>> = {};
  const batches = (Object.entries(events) as Array<[EventKind, unknown[]]>).map(([kind, list]): [EventKind, unknown[]] => {
    // Ids first (an Idempotency-Key's are by position in the request), so sampling keeps each event's own id;
    // a retry of a request answered 503 after it was sent on counts up from the first attempt's (retry-memory.ts).
    const ids = at.idempotencyKey
      ? idempotentEventIds(grant.projectId, at.idempotencyKey, request.bodyDigest ?? '', kind, list.length)
      : sequentialIds(list.length, at.retry?.first.firsts[kind]);
    if (ids.length > 0) firsts[kind] = ids[0];
    return [kind, newEvents(list as never, ids)];
  });
  const admitted = admitAll(deps, grant, batches);
  // One scrubbing budget for the whole request, whatever kinds it carries (docs/data.md#scrubbing).
  const budget = scrubBudget();
  const outcomes = await Promise.allSettled(
    admitted.map((a) =>
      // Sampling that left events out changed the request: it cannot go as sent.
      send(deps, request, at, a, budget, sent?.kind === a.kind && a.events.length === events[a.kind]?.length ? sent.body : undefined).catch((err) => {
        giveBack(deps, grant, a);
        throw err;
      }),
    ),
  );
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (!failed) {
    if (at.retry) deps.retries.forget(at.retry.key); // stored: an identical body from now on is a new request
    return;
  }
  // Answered 503 with some of it maybe written (a send in flight, or another kind's message
  // acknowledged): its retry must write the same events (docs/api.md, "A 503 retried").
  const maybeWritten = outcomes.some((o) => o.status === 'fulfilled' || o.reason instanceof SentUnacknowledged);
  if (maybeWritten && !at.idempotencyKey) {
    const key = at.retry?.key ?? deps.retries.keyOf(request);
    if (key !== undefined) deps.retries.remember(key, { receivedAt: at.receivedAt, firsts });
  }
  throw failed.reason;
}

async function send<K extends EventKind>(deps: IngestDeps, request: FastifyRequest, at: Received, a: Admitted<K>, budget: ScrubBudget, sent: unknown) {
  const { kind, events } = a;
  if (events.length === 0) return; // every event sampled out (counted)
  const changed = scrub(a, budget);
  const projectId = request.grant!.projectId;
  const retentionDays = a.policy.policy.retentionDays[kind];
  // As sent only under the scrubber's certificate (it changed nothing) and when the bytes say what was checked.
  const raw = !changed && sent !== undefined ? bytesAsSent(request, kind, sent) : undefined;
  const message = raw
    ? encodeAsSent({
        kind,
        projectId,
        receivedAt: at.receivedAt,
        body: raw,
        ids: events.map((e) => e.event_id),
        sequence: at.idempotencyKey === undefined, // sequentialIds: one header value names them
        retentionDays,
        certificate: a.policy.certificate,
        key: batchKey(kind, events),
      })
    : encodeBatch(kind, projectId, at.receivedAt, events, retentionDays);
  // Normalising can make a body longer (an invalid UTF-8 byte becomes a 3-byte U+FFFD).
  if (message.value.length > KAFKA_MAX_MESSAGE_BYTES) throw tooLarge(KAFKA_MAX_MESSAGE_BYTES, 'as a Kafka message');
  await deps.queue.enqueue(deps.topics.of(kind), [message], events.length, at.arrivedAt);
  deps.counters.onAccepted(kind, events.length);
}
