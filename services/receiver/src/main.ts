import { startService } from '@devtrail/config';
import { createHttpApp } from '@devtrail/http';
import { createMetrics, serveMetricsPort } from '@devtrail/metrics';
import { openAdapters } from '@devtrail/runtime';
import { createReceiver } from './app.ts';

// Distributed mode: one receiver replica. Config parsed once here and passed down.
const { config, logger } = startService('receiver', process.env);
const metrics = createMetrics();
const adapters = await openAdapters(config, logger, { migrate: true, metrics });
const receiver = await createReceiver(adapters, logger, config.ingest, metrics);
const app = await createHttpApp(logger, config.ingest.bodyLimitBytes, { trustProxy: config.trustProxy, metrics });
await receiver.register(app, undefined, undefined, config.metrics);
await app.listen({ host: config.host, port: config.port });
const metricsPort = config.metrics.port === undefined ? undefined : await serveMetricsPort(config.host, config.metrics.port, metrics, () => receiver.metricsJson());

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping: no new requests, draining produces');
  await app.close(); // stops intake, waits for in-flight requests
  await metricsPort?.close();
  await receiver.stop();
  await adapters.close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
