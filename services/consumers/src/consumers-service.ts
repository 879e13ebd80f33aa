import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TopicConsumer } from '@devtrail/consumer-kit';
import type { Logger } from '@devtrail/config';
import { registerProbes, type Adapters } from '@devtrail/runtime';

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
  // Consumers read Kafka and write ClickHouse; PostgreSQL is not theirs (docs/operations.md#probes).
  registerProbes(app, adapters, ['kafka', 'clickhouse'], async () => ({ consumers: await consumerMetrics(consumers) }));
  app.get('/metrics', async () => ({ consumers: await consumerMetrics(consumers) }));
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ error: 'Not found' }));
  return app;
}
