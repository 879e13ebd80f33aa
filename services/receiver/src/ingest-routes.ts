import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  badRequest,
  badSignature,
  bodyDigest,
  DRAIN_PATH,
  drainBodySchema,
  drainEntryToEvent,
  emptyBody,
  encodeBatch,
  EVENT_KINDS,
  IDEMPOTENCY_HEADER,
  idempotencyKeyHash,
  idempotencyKeyOf,
  idempotentEventIds,
  keyTime,
  kindRow,
  NDJSON_TYPES,
  newEvents,
  parseJsonBody,
  tooLarge,
  type EventDataByKind,
  type EventKind,
  type Topics,
} from '@devtrail/contract';
import { KAFKA_MAX_MESSAGE_BYTES } from '@devtrail/message-log';
import type { ProduceQueue } from './produce-queue.ts';
import type { KeyCache } from './auth/key-cache.ts';
import type { RateLimiter } from './auth/rate-limiter.ts';
import type { IngestCounters } from './ingest-counters.ts';
import { authenticate, checkOrigin, rateLimit } from './auth/authenticate.ts';
import { acceptCompressedBodies, parseJsonBodies } from './body.ts';
import { validDrainSignature } from './drain-signature.ts';
import { registerOtlpRoutes } from './otlp-routes.ts';

// THE PATH OF AN INGEST REQUEST, in the order Fastify runs it (docs/architecture.md).
// Every refusal is thrown and answered by the one mapping in contract http-answer.ts.
//
//   step                          Fastify hook    can answer
//   1 authenticate (the key)      onRequest       401; 503 + Retry-After when PostgreSQL is out and the key is not cached
//   2 check the browser's Origin  onRequest       403
//   3 rate limit                  onRequest       429 + Retry-After (X-RateLimit-* on every answer from here on)
//   4 decompress                  preParsing      415 unknown Content-Encoding; 400 not valid gzip/deflate
//   5 parse JSON                  content parser  415 not JSON; 413 over the limit after decompression; 400 empty or malformed
//   6 validate and normalise      handler         400 zod issues (the column store's domain included); 400 bad Idempotency-Key;
//                                                 503 when a key's first receive time cannot be read (PostgreSQL out)
//   7 produce, wait for acks=all  handler         503 + Retry-After when Kafka does not acknowledge by the request's
//                                                 deadline (arrival + INGEST_ACK_TIMEOUT_MS) or is failing; 413 past Kafka's message limit
//   8 answer                      handler         200 with the spec's body
//   9 count the outcome           onResponse      accepted events per kind (at 7), refused requests per kind and reason
// The drain route takes the same steps, with its raw body kept for the signature (5').
// Consumers take the events from Kafka on (services/consumers).

export interface IngestDeps {
  keys: KeyCache;
  limiter: RateLimiter;
  topics: Topics;
  queue: ProduceQueue;
  counters: IngestCounters;
  /** The first receive time of a project's Idempotency-Key (hashed), recording `now` if it is new (relational idempotency-repo.ts). */
  firstSeen(projectId: string, keyHash: string, now: Date): Promise<Date>;
}

export async function registerIngest(app: FastifyInstance, deps: IngestDeps): Promise<void> {
  await app.register(async (ingest) => {
    ingest.addHook('onRequest', authenticate(deps.keys)); // 1
    ingest.addHook('onRequest', checkOrigin); // 2
    ingest.addHook('onRequest', rateLimit(deps.limiter)); // 3
    acceptCompressedBodies(ingest); // 4
    parseJsonBodies(ingest); // 5
    ingest.addHook('onResponse', async (request, reply) => deps.counters.onResponse(request.routeOptions.url, reply.statusCode)); // 9

    for (const kind of EVENT_KINDS) {
      const k = kindRow(kind);
      ingest.post(k.path, async (request, reply) => {
        const at = await received(deps, request, reply);
        // 6: the zod-free fast path where there is one, the kind's schema otherwise (the source of every message)
        let events = k.fastEvents?.(request.body, at.defaultsTime);
        if (!events) {
          const parsed = k.request.safeParse(request.body);
          if (!parsed.success) throw parsed.error;
          events = k.toEvents(parsed.data, at.defaultsTime);
        }
        await produce(deps, kind, request, at, events); // 7
        return k.respond(events); // 8
      });
    }
    registerDrainRoute(ingest, deps);
    registerOtlpRoutes(ingest, deps, { received, produce }); // OTLP/HTTP: the same steps (otlp-routes.ts)
  });
}

export interface Received {
  /** When the request arrived (its deadline counts from here), epoch ms. */
  arrivedAt: number;
  /** The envelope's received_at: when the request first arrived (contract idempotency.ts). */
  receivedAt: string;
  /** "Now" in the spec's defaults: the same first receive time. */
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

/** 7: the request's events, each with its own id, as one message on the kind's topic; resolves once Kafka acknowledged it. */
export async function produce<K extends EventKind>(deps: IngestDeps, kind: K, request: FastifyRequest, at: Received, events: Array<EventDataByKind[K]>) {
  const projectId = request.grant!.projectId;
  const ids = at.idempotencyKey ? idempotentEventIds(projectId, at.idempotencyKey, request.bodyDigest ?? '', kind, events.length) : undefined;
  const message = encodeBatch(kind, projectId, at.receivedAt, newEvents(events, ids));
  // Normalising can make a body longer (an invalid UTF-8 byte becomes a 3-byte U+FFFD).
  if (message.value.length > KAFKA_MAX_MESSAGE_BYTES) throw tooLarge(KAFKA_MAX_MESSAGE_BYTES, 'as a Kafka message');
  await deps.queue.enqueue(deps.topics.of(kind), [message], events.length, at.arrivedAt);
  deps.counters.onAccepted(kind, events.length);
}

/** 5' for the drain: a JSON array or NDJSON, through the same JSON parser. */
function parseDrainBody(request: FastifyRequest, raw: Buffer): unknown {
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  const text = raw.toString('utf8');
  if (text.trim() === '') throw emptyBody();
  try {
    if (NDJSON_TYPES.some((t) => type.startsWith(t))) {
      return text
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => parseJsonBody(l));
    }
    return parseJsonBody(text);
  } catch (err) {
    throw badRequest(`Malformed drain body: ${(err as Error).message}`, 'JSON array or NDJSON', 'malformed');
  }
}

/** Vercel log drain: JSON array or NDJSON, optional HMAC-SHA1 signature; entries become logs. */
function registerDrainRoute(app: FastifyInstance, deps: IngestDeps): void {
  app.register(async (scope) => {
    // The signature covers the raw bytes, so this route keeps the body unparsed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(['application/json', ...NDJSON_TYPES, 'text/plain'], { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post(DRAIN_PATH, async (request, reply) => {
      // No body at all (no Content-Type, or Content-Length: 0) leaves request.body unset.
      const raw = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
      const grant = request.grant!;
      if (grant.drainSecret && !validDrainSignature(raw, grant.drainSecret, request.headers['x-vercel-signature'] as string | undefined)) throw badSignature();
      const at = await received(deps, request, reply);
      if (at.idempotencyKey) request.bodyDigest = bodyDigest(raw);
      const parsed = drainBodySchema.safeParse(parseDrainBody(request, raw));
      if (!parsed.success) throw parsed.error;
      const events = parsed.data.map(drainEntryToEvent);
      if (events.length > 0) await produce(deps, 'log', request, at, events);
      return { ok: true, count: events.length };
    });
  });
}
