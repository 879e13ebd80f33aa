import { startService } from '@devtrail/config';
import { createMetrics } from '@devtrail/metrics';
import { openAdapters } from '@devtrail/runtime';
import { createSinks, sinkOptions } from './sinks.ts';
import { consumersHttp } from './consumers-service.ts';
import { watchDeletedProjects } from './deleted-projects.ts';
import { alertsIfEnabled, sinkNamesOf } from './alerts.ts';

// Distributed mode: a consumers process. CONSUMERS picks which sinks it runs, so each
// kind can be scaled on its own (several processes share a group's partitions).
const { config, logger } = startService('consumers', process.env);
const metrics = createMetrics();
const adapters = await openAdapters(config, logger, { migrate: true, metrics });
const deleted = await watchDeletedProjects(adapters.relational, logger);
const sinks = createSinks(sinkNamesOf(config.consumers.enabled), sinkOptions(config, adapters, logger, deleted, metrics));
for (const s of sinks) await s.start();
const alerts = alertsIfEnabled(config, adapters, logger);
await alerts?.start();
const http = await consumersHttp(adapters, [...sinks, ...(alerts?.consumers ?? [])], logger, metrics);
await http.listen({ host: config.host, port: config.consumers.metricsPort });
logger.info({ consumers: config.consumers.enabled }, 'consumers running');

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping consumers: writing buffered batches, committing');
  await Promise.all([...sinks.map((s) => s.stop()), alerts?.stop()]);
  await deleted.stop();
  await http.close();
  await adapters.close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
