import type { FastifyInstance } from 'fastify';
import type { Config, Logger } from '@devtrail/config';
import { registerHealthRoutes, type Adapters } from '@devtrail/runtime';
import { projectsRepo, rateLimitRepo, PROJECT_CHANGED_CHANNEL } from '@devtrail/relational-store';
import { KeyCache } from './auth/key-cache.ts';
import { RateLimiter } from './auth/rate-limiter.ts';
import { ProduceQueue } from './produce-queue.ts';
import { registerIngest } from './ingest-routes.ts';
import { IngestCounters } from './ingest-counters.ts';
import { receiverOpenApi } from './openapi.ts';
import { registerSchemaRoutes } from './schema-routes.ts';

/** The ingest settings (libs/config: INGEST_*, KEY_CACHE_*). */
export type ReceiverOptions = Pick<Config['ingest'], 'bodyLimitBytes' | 'maxPendingEvents' | 'ackTimeoutMs' | 'keyCacheTtlMs' | 'keyCacheMaxStaleMs'>;

export interface Receiver {
  /**
   * Registers health, metrics and ingest routes on a Fastify instance (own or shared, as
   * in the embedded mode, which adds its consumers' figures to /metrics and serves the
   * OpenAPI document of every route it hosts).
   */
  register(app: FastifyInstance, moreMetrics?: () => Promise<Record<string, unknown>>, openApi?: () => Record<string, unknown>): Promise<void>;
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
    async register(app, moreMetrics, openApi = receiverOpenApi) {
      registerHealthRoutes(app, adapters, openApi);
      registerSchemaRoutes(app);
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
