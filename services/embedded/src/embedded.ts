import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ensurePrivateDir, makeTreePrivate, type Config, type Logger } from '@devtrail/config';
import { createHttpApp } from '@devtrail/http';
import { deliveryOptionsOf } from '@devtrail/alerting';
import { openAdapters, type Adapters } from '@devtrail/runtime';
import { createReceiver } from '@devtrail/receiver';
import { alertsFromConfig, createSinks, consumerMetrics, sinkOptions, SINK_NAMES, watchDeletedProjects } from '@devtrail/consumers';
import type { AlertsService } from '@devtrail/alerts';
import { registerControlPlane, registerDashboardUi, type IssuedSetupCode } from '@devtrail/dashboard';
import { projectsRepo } from '@devtrail/relational-store';
import type { TopicConsumer } from '@devtrail/consumer-kit';
import { createMetrics, serveMetricsPort } from '@devtrail/metrics';
import { operatorTokenFor } from './operator-token.ts';
import { publishedOpenApi } from './openapi.ts';

// Embedded mode: the same stages as the distributed mode in one process; only the
// three adapters differ (in-process log, chdb, PGlite), chosen by config.mode.

export interface Embedded {
  app: FastifyInstance;
  adapters: Adapters;
  sinks: TopicConsumer[];
  /** The alerts consumer (triage, rules, deliveries). */
  alerts: AlertsService;
  url: string;
  operatorToken: string;
  /** While no owner exists: the setup code made at this start (and its file), shown on a terminal only. */
  setupCode: IssuedSetupCode | null;
  /** Set on the very first start only: the default project and its key (shown once). */
  firstProject: { id: string; name: string; apiKey: string } | null;
  /** The private metrics port's /metrics, when METRICS_PORT is set (docs/operations.md#metrics). */
  metricsUrl: string | null;
  stop(): Promise<void>;
}

export async function startEmbedded(config: Config, logger: Logger): Promise<Embedded> {
  // Readable by this user only: PGlite's files hold password hashes and drain secrets, chdb's
  // the telemetry (services/embedded/src/main.ts also sets the umask for files made later).
  ensurePrivateDir(config.dataDir);
  // One registry for every stage of the process: its /metrics has the receiver's and the consumers' series.
  const metrics = createMetrics();
  const adapters = await openAdapters({ ...config, mode: 'embedded' }, logger, { migrate: true, metrics });
  makeTreePrivate(config.dataDir);
  const operatorToken = operatorTokenFor(config.dataDir, config.operatorToken);
  const receiver = await createReceiver(adapters, logger, config.ingest, metrics);
  const deleted = await watchDeletedProjects(adapters.relational, logger);
  const sinks = createSinks(SINK_NAMES, sinkOptions(config, adapters, logger, deleted, metrics));
  for (const s of sinks) await s.start();
  const alerts = alertsFromConfig(config, adapters, logger);
  await alerts.start();
  const consumers = [...sinks, ...alerts.consumers];

  const app = await createHttpApp(logger, config.ingest.bodyLimitBytes, { trustProxy: config.trustProxy, metrics });
  const consumersJson = async () => ({ consumers: await consumerMetrics(consumers, metrics) });
  await receiver.register(app, consumersJson, publishedOpenApi, config.metrics);
  const ui = await registerDashboardUi(app, adapters, logger, {
    operatorToken,
    security: config.dashboard,
    dataDir: config.dataDir,
    llmPrices: config.llmPrices,
    defaultRetentionDays: config.ingest.defaultRetentionDays,
  });
  await registerControlPlane(app, adapters, logger, {
    operatorToken,
    defaultRateLimitPerMinute: config.ingest.defaultRateLimitPerMinute,
    defaultRetentionDays: config.ingest.defaultRetentionDays,
    deletionGraceMs: config.deletionGraceMs,
    authenticators: [ui.authenticator],
    lagOf: () => consumerMetrics(consumers, metrics),
    llmPrices: config.llmPrices,
    delivery: deliveryOptionsOf(config.alerts),
    publicUrl: config.publicUrl,
    sourceMaps: config.sourceMaps,
    // PGlite runs on this thread: maps' bytes are files beside it.
    sourceMapFiles: join(config.dataDir, 'source-maps'),
  });

  const repo = projectsRepo(adapters.relational);
  let firstProject: Embedded['firstProject'] = null;
  if ((await repo.list()).length === 0) {
    const { project, apiKey } = await repo.create('default', config.ingest.defaultRateLimitPerMinute);
    firstProject = { id: project.id, name: project.name, apiKey };
  }

  const address = await app.listen({ host: config.host, port: config.port });
  const metricsPort =
    config.metrics.port === undefined ? undefined : await serveMetricsPort(config.host, config.metrics.port, metrics, () => receiver.metricsJson(consumersJson));

  let stopped = false;
  return {
    app,
    adapters,
    sinks,
    alerts,
    url: address,
    operatorToken,
    setupCode: ui.setupCode,
    firstProject,
    metricsUrl: metricsPort ? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${metricsPort.port}/metrics` : null,
    async stop() {
      if (stopped) return;
      stopped = true;
      await app.close(); // 1. no new requests; in-flight ones finish
      await metricsPort?.close();
      await receiver.stop(); // 2. every acknowledged event is in the log
      // 3. the in-process log does not survive the process: let the sinks catch up first.
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const lags = await Promise.all(consumers.map((s) => s.lag()));
        if (lags.every((l) => l === 0)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await Promise.all([...sinks.map((s) => s.stop()), alerts.stop()]); // 4. buffered rows written, offsets committed
      await deleted.stop();
      await adapters.close(); // 5. stores closed
    },
  };
}
