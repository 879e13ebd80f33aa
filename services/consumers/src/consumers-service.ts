import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TopicConsumer } from '@devtrail/consumer-kit';
import type { Logger } from '@devtrail/config';
import { readiness, type Adapters } from '@devtrail/runtime';

/** Lag and outcome counters of every consumer, as JSON: what /metrics and the dashboard read. */
export async function consumerMetrics(consumers: TopicConsumer[]) {
  return Promise.all(
    consumers.map(async (c) => ({
      ...c.stats(),
      lag: await c.lag().catch(() => null),
    })),
  );
}

/** A small HTTP face for a consumers process: liveness, readiness (with lag) and metrics. */
export async function consumersHttp(adapters: Adapters, consumers: TopicConsumer[], logger: Logger): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger, logController: new LogController({ disableRequestLogging: true }) });
  app.get('/health', async () => ({ status: 'ok', timestamp: new Date().toISOString() }));
  app.get('/health/ready', async (_req, reply) => {
    const r = await readiness(adapters);
    return reply.code(r.status === 'ok' ? 200 : 503).send({ ...r, consumers: await consumerMetrics(consumers) });
  });
  app.get('/metrics', async () => ({ consumers: await consumerMetrics(consumers) }));
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ error: 'Not found' }));
  return app;
}
