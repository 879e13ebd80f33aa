import type { FastifyInstance } from 'fastify';
import { INGEST_RETRY_WINDOW_DEFAULT_MS, type Config, type Logger } from '@devtrail/config';
import { registerHealthRoutes, type Adapters } from '@devtrail/runtime';
import { errorGroupsRepo, idempotencyRepo, projectsRepo, quotaRepo, rateLimitRepo, PROJECT_CHANGED_CHANNEL } from '@devtrail/relational-store';
import { createMetrics, registerMetricsRoute, type Metrics, type MetricsAccess } from '@devtrail/metrics';
import { IDEMPOTENCY_RETENTION_MS } from './idempotency.ts';
import { GrantPolicies } from './data/grant-policy.ts';
import { EventQuotas } from './data/event-quotas.ts';
import { KeyCache } from './auth/key-cache.ts';
import { RateLimiter } from './auth/rate-limiter.ts';
import { ProduceQueue } from './produce-queue.ts';
import { GroupResolver } from './group-resolver.ts';
import { RetryMemory } from './retry-memory.ts';
import { registerIngest } from './ingest-routes.ts';
import { IngestCounters } from './ingest-counters.ts';
import { receiverOpenApi } from './openapi.ts';
import { registerSchemaRoutes } from './schema-routes.ts';

/** The ingest settings (libs/config: INGEST_*, KEY_CACHE_*). */
export type ReceiverOptions = Pick<
  Config['ingest'],
  'bodyLimitBytes' | 'maxPendingEvents' | 'ackTimeoutMs' | 'keyCacheTtlMs' | 'keyCacheMaxStaleMs' | 'defaultRetentionDays'
> &
  Partial<Pick<Config['ingest'], 'rateWindowShiftMs' | 'retryWindowMs'>>;

export interface Receiver {
  /**
   * Registers health, metrics and ingest routes on a Fastify instance (own or shared, as
   * in the embedded mode, which adds its consumers' figures to the JSON view of /metrics and
   * serves the OpenAPI document of every route it hosts).
   */
  register(
    app: FastifyInstance,
    moreMetrics?: () => Promise<Record<string, unknown>>,
    openApi?: () => Record<string, unknown>,
    metricsAccess?: MetricsAccess,
  ): Promise<void>;
  /** The JSON view of /metrics (what the private metrics port serves too). */
  metricsJson(moreMetrics?: () => Promise<Record<string, unknown>>): Promise<Record<string, unknown>>;
  /** Stops intake bookkeeping: drains queued produces, stops listening for key changes. */
  stop(): Promise<void>;
  keyCache: KeyCache;
  queue: ProduceQueue;
  counters: IngestCounters;
  metrics: Metrics;
}

/** Wires the receiver's parts; nothing here listens on a port. `metrics`: the process's registry (a new one by default). */
export async function createReceiver(
  adapters: Adapters,
  logger: Logger,
  opts: ReceiverOptions,
  metrics: Metrics = createMetrics({ processMetrics: false }),
): Promise<Receiver> {
  const repo = projectsRepo(adapters.relational);
  const keyCache = new KeyCache((hash) => repo.findGrant(hash), {
    ttlMs: opts.keyCacheTtlMs,
    maxStaleMs: opts.keyCacheMaxStaleMs,
    onLookup: (result) => metrics.m.keyCacheLookups.inc({ result }),
  });
  const groupsRepo = errorGroupsRepo(adapters.relational);
  let groupsWarnedAt = 0;
  const groups = new GroupResolver(groupsRepo.lookup, (err) => {
    if (Date.now() - groupsWarnedAt < 60_000) return;
    groupsWarnedAt = Date.now();
    logger.warn({ err: (err as Error)?.message }, 'error groups: PostgreSQL unreachable; errors keep their computed group until it answers (docs/fingerprint.md)');
  });
  const unlisten = await adapters.relational.listen(
    PROJECT_CHANGED_CHANNEL,
    (projectId) => {
      keyCache.evictProject(projectId);
      groups.evictProject(projectId);
    },
    () => {
      keyCache.clear();
      groups.clear();
    },
  );
  const rl = rateLimitRepo(adapters.relational);
  // The clock the windows are counted by (docs/configuration.md, RATE_WINDOW_SHIFT_MS).
  const shift = opts.rateWindowShiftMs ?? 0;
  const windowNow = () => Date.now() + shift;
  const limiter = new RateLimiter(
    (keyId, start, n, limit) => rl.lease(keyId, start, n, limit),
    (failing, err) =>
      failing
        ? logger.warn({ err: (err as Error)?.message }, 'rate limit: PostgreSQL unreachable; each receiver enforces the limit on its own until it answers')
        : logger.info('rate limit: PostgreSQL answers again; limits are shared again'),
    { now: windowNow },
  );
  const qr = quotaRepo(adapters.relational);
  const quotas = new EventQuotas(
    (scope, start, n, limit) => qr.lease(scope, start, n, limit),
    (scope, from, to) => qr.total(scope, from, to),
    (failing, err) =>
      failing
        ? logger.warn({ err: (err as Error)?.message }, 'quotas: PostgreSQL unreachable; each receiver enforces the quotas on its own until it answers')
        : logger.info('quotas: PostgreSQL answers again; quotas are shared again'),
    windowNow,
  );
  const policies = new GrantPolicies(opts.defaultRetentionDays);
  const idempotency = idempotencyRepo(adapters.relational);
  const prune = setInterval(async () => {
    await rl.prune(new Date(Date.now() - 3600_000)).catch(() => {});
    await qr.prune(new Date(Date.now() - 2 * 86_400_000)).catch(() => {}); // day windows live a day; the baseline reads the last hour
    // Bounded steps, so one replica's prune never holds long locks; every replica prunes.
    for (let i = 0; i < 20; i++) if ((await idempotency.prune(new Date(Date.now() - IDEMPOTENCY_RETENTION_MS)).catch(() => 0)) < 50_000) break;
  }, 600_000);
  prune.unref();
  const producer = adapters.messageLog.createProducer();
  await producer.connect().catch((err) => logger.warn({ err: err.message }, 'message log not reachable yet; will retry on first send'));
  const queue = new ProduceQueue(producer, { maxPendingEvents: opts.maxPendingEvents, ackTimeoutMs: opts.ackTimeoutMs, metrics });
  const counters = new IngestCounters(metrics);
  const retries = new RetryMemory(opts.retryWindowMs ?? INGEST_RETRY_WINDOW_DEFAULT_MS);

  const metricsJson = async (moreMetrics?: () => Promise<Record<string, unknown>>) => ({
    receiver: { ...(await counters.snapshot()), produce_queue_pending: queue.pending },
    ...(await moreMetrics?.()),
  });

  return {
    keyCache,
    queue,
    counters,
    metrics,
    metricsJson,
    // metricsAccess: loopback only by default; config.metrics adds its token (docs/operations.md#metrics).
    async register(app, moreMetrics, openApi = receiverOpenApi, metricsAccess = { token: undefined }) {
      registerHealthRoutes(app, adapters, openApi);
      registerSchemaRoutes(app);
      registerMetricsRoute(app, metrics, () => metricsJson(moreMetrics), metricsAccess);
      await registerIngest(
        app,
        {
          keys: keyCache,
          limiter,
          topics: adapters.topics,
          queue,
          counters,
          firstSeen: idempotency.firstSeen,
          policies,
          quotas,
          groups,
          retries,
        },
        { relational: adapters.relational, metrics },
      );
    },
    async stop() {
      clearInterval(prune);
      await queue.drain();
      await unlisten();
      await producer.disconnect();
    },
  };
}
