import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TopicConsumer } from '@devtrail/consumer-kit';
import type { Logger } from '@devtrail/config';
import { observeHttp, registerMetricsRoute, type Metrics } from '@devtrail/metrics';
import { registerProbes, type Adapters } from '@devtrail/runtime';
import { consumerMetrics } from './sink-metrics.ts';

/** A small HTTP face for a consumers process: liveness, readiness (with lag) and metrics. */
export async function consumersHttp(adapters: Adapters, consumers: TopicConsumer[], logger: Logger, metrics: Metrics): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger, logController: new LogController({ disableRequestLogging: true }) });
  observeHttp(app, metrics);
  // Consumers read Kafka and write ClickHouse; PostgreSQL is not theirs (docs/operations.md#probes).
  registerProbes(app, adapters, ['kafka', 'clickhouse'], async () => ({ consumers: await consumerMetrics(consumers, metrics) }));
  registerMetricsRoute(app, metrics, async () => ({ consumers: await consumerMetrics(consumers, metrics) }));
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ error: 'Not found' }));
  return app;
}
