import { startService } from '@devtrail/config';
import { createHttpApp } from '@devtrail/http';
import { createMetrics, registerMetricsRoute, serveMetricsPort } from '@devtrail/metrics';
import { deliveryOptionsOf } from '@devtrail/alerting';
import { openAdapters, registerHealthRoutes } from '@devtrail/runtime';
import { dashboardOpenApi } from './api/openapi.ts';
import { registerControlPlane } from './control-plane.ts';
import { registerDashboardUi } from './ui/register-dashboard-ui.ts';

// Distributed mode: the control plane (admin API, read API, web UI) as its own process.
const { config, logger } = startService('dashboard', process.env);
const metrics = createMetrics();
const adapters = await openAdapters(config, logger, { migrate: true, metrics });
const app = await createHttpApp(logger, 1024 * 1024, { trustProxy: config.trustProxy, metrics });
// The dashboard reads ClickHouse and PostgreSQL; Kafka is not on its path (docs/operations.md#probes).
registerHealthRoutes(app, adapters, dashboardOpenApi, ['clickhouse', 'postgres']);
// Request latency and process metrics; its JSON view has nothing of the pipeline's (the receivers and consumers count that).
registerMetricsRoute(app, metrics, async () => ({}), config.metrics);
const ui = await registerDashboardUi(app, adapters, logger, {
  operatorToken: config.operatorToken,
  security: config.dashboard,
  dataDir: config.dataDir,
  ingestPort: config.port,
  llmPrices: config.llmPrices,
  defaultRetentionDays: config.ingest.defaultRetentionDays,
});
await registerControlPlane(app, adapters, logger, {
  operatorToken: config.operatorToken,
  defaultRateLimitPerMinute: config.ingest.defaultRateLimitPerMinute,
  defaultRetentionDays: config.ingest.defaultRetentionDays,
  deletionGraceMs: config.deletionGraceMs,
  ...(config.clickhouse.cluster ? { clickhouseCluster: { cluster: config.clickhouse.cluster, database: config.clickhouse.database } } : {}),
  authenticators: [ui.authenticator],
  llmPrices: config.llmPrices,
  delivery: deliveryOptionsOf(config.alerts),
  publicUrl: config.publicUrl,
  sourceMaps: config.sourceMaps,
});
await app.listen({ host: config.host, port: config.dashboardPort });
const metricsPort = config.metrics.port === undefined ? undefined : await serveMetricsPort(config.host, config.metrics.port, metrics, async () => ({}));
// The setup code goes to a terminal only, never into a log line (docs/security.md).
if (ui.setupCode && process.stdout.isTTY) process.stdout.write(`\ndevtrail dashboard: no owner yet. Setup code: ${ui.setupCode.code}   (valid 24 h, at /setup)\n\n`);

const shutdown = async () => {
  await app.close();
  await metricsPort?.close();
  await adapters.close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
