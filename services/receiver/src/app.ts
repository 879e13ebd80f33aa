import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import cors from '@fastify/cors';
import type { Config, Logger } from '@devtrail/config';
import type { Adapters } from '@devtrail/runtime';
import { readiness } from '@devtrail/runtime';
import { projectsRepo, rateLimitRepo, PROJECT_CHANGED_CHANNEL } from '@devtrail/relational-store';
import { toHttpAnswer } from '@devtrail/contract';
import { KeyCache } from './auth/key-cache.ts';
import { RateLimiter } from './auth/rate-limiter.ts';
import { ProduceQueue } from './produce-queue.ts';
import { registerIngest } from './ingest-routes.ts';
import { IngestCounters } from './ingest-counters.ts';
import { buildOpenApiDocument } from './openapi.ts';

/** The ingest settings (libs/config: INGEST_*, KEY_CACHE_*). */
export type ReceiverOptions = Pick<Config['ingest'], 'bodyLimitBytes' | 'maxPendingEvents' | 'ackTimeoutMs' | 'keyCacheTtlMs' | 'keyCacheMaxStaleMs'>;

export interface Receiver {
  /**
   * Registers health, metrics and ingest routes on a Fastify instance (own or shared, as
   * in the embedded mode, which adds its consumers' figures to /metrics).
   */
  register(app: FastifyInstance, moreMetrics?: () => Promise<Record<string, unknown>>): Promise<void>;
  /** Stops intake bookkeeping: drains queued produces, stops listening for key changes. */
  stop(): Promise<void>;
  keyCache: KeyCache;
  queue: ProduceQueue;
  counters: IngestCounters;
}

/** Wires the receiver's parts; nothing here listens on a port. */
export async function createReceiver(adapters: Adapters, logger: Logger, opts: ReceiverOptions): Promise<Receiver> {
  const repo = projectsRepo(adapters.relational);
  const keyCache = new KeyCache((hash) => repo.findGrant(hash), { ttlMs: opts.keyCacheTtlMs, maxStaleMs: opts.keyCacheMaxStaleMs });
  const unlisten = await adapters.relational.listen(
    PROJECT_CHANGED_CHANNEL,
    (projectId) => keyCache.evictProject(projectId),
    () => keyCache.clear(),
  );
  const rl = rateLimitRepo(adapters.relational);
  const limiter = new RateLimiter(
    (keyId, start, n, limit) => rl.lease(keyId, start, n, limit),
    (failing, err) =>
      failing
        ? logger.warn({ err: (err as Error)?.message }, 'rate limit: PostgreSQL unreachable; each receiver enforces the limit on its own until it answers')
        : logger.info('rate limit: PostgreSQL answers again; limits are shared again'),
  );
  const prune = setInterval(() => rl.prune(new Date(Date.now() - 3600_000)).catch(() => {}), 600_000);
  prune.unref();
  const producer = adapters.messageLog.createProducer();
  await producer.connect().catch((err) => logger.warn({ err: err.message }, 'message log not reachable yet; will retry on first send'));
  const queue = new ProduceQueue(producer, { maxPendingEvents: opts.maxPendingEvents, ackTimeoutMs: opts.ackTimeoutMs });
  const counters = new IngestCounters();

  return {
    keyCache,
    queue,
    counters,
    async register(app, moreMetrics) {
      app.get('/health', async () => ({ status: 'ok', timestamp: new Date().toISOString() }));
      app.get('/openapi.json', async () => buildOpenApiDocument());
      app.get('/health/ready', async (_req, reply) => {
        const r = await readiness(adapters);
        return reply.code(r.status === 'ok' ? 200 : 503).send(r);
      });
      app.get('/metrics', async () => ({ receiver: { ...counters.snapshot(), produce_queue_pending: queue.pending }, ...(await moreMetrics?.()) }));
      await registerIngest(app, { keys: keyCache, limiter, topics: adapters.topics, queue, counters });
    },
    async stop() {
      clearInterval(prune);
      await queue.drain();
      await unlisten();
      await producer.disconnect();
    },
  };
}

const MAX_PATH_PARAM_LENGTH = 2048;

/** A Fastify instance with devtrail's JSON error and 404 handling, not yet listening. */
export async function createHttpApp(logger: Logger, bodyLimitBytes: number): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: bodyLimitBytes,
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: true,
    // Fastify's JSON parser already refuses __proto__ / constructor.prototype keys.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    return503OnClosing: true,
    // Path parameters (trace ids, fingerprints, uuids) are bounded by the routes' own
    // schemas (400); the router's limit only stops absurd URLs.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    // A bad URL or an over-long parameter is answered like every other failure.
    frameworkErrors: (err, _request, reply) => {
      const h = toHttpAnswer(err, bodyLimitBytes);
      void (reply as FastifyReply).code(h.status).headers(h.headers).send(h.body);
    },
  });
  await app.register(cors, {
    origin: true, // per-project origin lists are enforced on the request itself (403)
    methods: ['GET', 'POST', 'OPTIONS'],
    // No allowedHeaders: a preflight is answered with the headers it asks for, so a
    // browser SDK's own headers pass; the key and origin are checked on the request itself.
    exposedHeaders: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'],
    maxAge: 86400,
  });
  app.setErrorHandler((err, request, reply) => {
    const h = toHttpAnswer(err, bodyLimitBytes);
    if (h.status >= 500 && h.status !== 503) request.log.error({ err }, 'unhandled error');
    // One per refused request: debug. The outage behind it is logged once, by the backend's adapter.
    else if (h.status === 503) request.log.debug({ err: (err as Error).message }, 'answering 503');
    return reply.code(h.status).headers(h.headers).send(h.body);
  });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: `Not found: ${request.method} ${request.url.split('?')[0].slice(0, 200)}` }));
  return app;
}
