import { readsAs, type ClusterTarget } from '@devtrail/column-store';
import type { FastifyInstance } from 'fastify';
import { loadConfig, loadLlmPrices, PRICE_EDITS_REFRESH_MS, withEdits, type LlmPriceTable, type Logger } from '@devtrail/config';
import type { Adapters } from '@devtrail/runtime';
import { deletionsRepo, keepPriceEdits, mapFiles, projectsRepo, savedQueriesRepo, sourceMapsRepo, uploadTokensRepo } from '@devtrail/relational-store';
import { operatorAuthenticator, requirePrincipal, type Authenticator } from './api/access.ts';
import { PROJECT_ROUTES } from './api/projects.ts';
import { mergesLookup } from './errors/group-merges.ts';
import { admitsUploadTokens, serveGroup } from '@devtrail/http/route';
import { READ_API } from './api/read-api.ts';
import { SAVED_QUERY_ROUTES } from './api/saved-queries.ts';
import { exportSlots } from './api/export-slots.ts';
import { LLM_PRICE_ROUTES } from './llm-prices/routes.ts';
import { DATA_ROUTES } from './data/routes.ts';
import { DELETION_ROUTES } from './deletion/routes.ts';
import { retentionLookup } from './data/project-retention.ts';
import { startDeletionWorker } from './deletion/worker.ts';
import { deletionPublisher } from './deletion/publisher.ts';
import { scorePublisher } from './scores/publisher.ts';
import { SCORE_ROUTES } from './scores/routes.ts';
import { TRIAGE_ROUTES } from './errors/triage-routes.ts';
import { OWNERSHIP_ROUTES } from './errors/ownership-routes.ts';
import { ALERT_ROUTES } from './api/alerts.ts';
import { SOURCE_MAP_ROUTES, takeMapsAsBytes, type SourceMapLimits } from './source-maps/maps.ts';
import { failedMaps } from './source-maps/symbolicate.ts';
import { uploadTokenAuthenticator } from './source-maps/upload-token-authenticator.ts';
import { UPLOAD_TOKEN_ROUTES } from './source-maps/upload-tokens.ts';
import { PROMPT_ROUTES } from './prompts/prompt-routes.ts';
import { deliveryOptionsOf, type DeliveryOptions } from '@devtrail/alerting';
import { createMapPool } from '@devtrail/source-maps';

export interface ControlPlaneOptions {
  operatorToken: string | undefined;
  defaultRateLimitPerMinute: number;
  /** RETENTION_DAYS: the retention of kinds a project did not set (docs/data.md). */
  defaultRetentionDays: number;
  /** DELETION_GRACE_MS: how long a project's deletion waits before it checks that nothing came back. */
  deletionGraceMs: number;
  /** CLICKHOUSE_CLUSTER and the database, when the column store is a cluster (deletions go to its local tables). */
  clickhouseCluster?: ClusterTarget;
  /** Extra ways to authenticate (the web UI's sessions). */
  authenticators?: Authenticator[];
  /** Consumer lag for the ingestion-health view, when this process can see it. */
  lagOf?: () => Promise<unknown>;
  /** Prices behind estimated_cost_usd (config.llmPrices); the repository's table when unset. */
  llmPrices?: LlmPriceTable;
  /** How "test rule" delivers (config.alerts); the defaults when unset. */
  delivery?: DeliveryOptions;
  /** Where people reach the dashboard, for links in notifications (DEVTRAIL_PUBLIC_URL). */
  publicUrl?: string;
  /** Source map limits and the source-map worker's budget (config.sourceMaps); the defaults when unset. */
  sourceMaps?: SourceMapLimits;
  /**
   * A directory for source maps' bytes, when the relational store runs on this thread (PGlite,
   * embedded mode: its bytea costs the event loop ~0.5 s a MiB); unset: in PostgreSQL's rows.
   */
  sourceMapFiles?: string;
}

/** How often files no source map names any more (a deleted project's) are looked for. */
const SWEEP_MAP_FILES_MS = 10 * 60_000;

/** The configuration's defaults, for a caller (a test) that leaves delivery or source map limits unset. */
const defaults = () => loadConfig();

/** Registers /api/admin and /api/projects on an app (its own process, or the embedded one), and runs deletions until the app closes. */
export async function registerControlPlane(app: FastifyInstance, adapters: Adapters, logger: Logger, opts: ControlPlaneOptions): Promise<void> {
  if (!opts.operatorToken) logger.warn('DEVTRAIL_OPERATOR_TOKEN is not set: the admin and read APIs accept no operator calls');
  const repo = projectsRepo(adapters.relational);
  const operator = operatorAuthenticator(opts.operatorToken, async (id) => (await repo.get(id)) !== null);
  const tokens = uploadTokensRepo(adapters.relational);
  const sourceMaps = opts.sourceMaps ?? defaults().sourceMaps;
  // One source-map worker for uploads and symbolication (its heap and time limits: docs/source-maps.md).
  const maps = createMapPool(sourceMaps.budget);
  app.addHook('onClose', async () => maps.close());
  const files = opts.sourceMapFiles ? mapFiles(opts.sourceMapFiles) : undefined;
  if (files) {
    const sweep = () =>
      sourceMapsRepo(adapters.relational, files)
        .sweepFiles()
        .catch((err: Error) => logger.warn({ err: err.message }, 'source maps: sweeping unused files failed; next time'));
    void sweep();
    const timer = setInterval(sweep, SWEEP_MAP_FILES_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
  // Every read runs under the read limits the column store applies itself (column-store's
  // bounded-read.ts); searches wait behind lookups.
  const reads = adapters.columnStore;
  const searches = readsAs(adapters.columnStore, 'search');
  const retention = retentionLookup(adapters.relational, opts.defaultRetentionDays);
  // The prices every LLM cost is read with: the files', and the operator's edits kept current.
  const prices = opts.llmPrices ?? loadLlmPrices();
  const keeper = await keepPriceEdits(adapters.relational, (edits) => withEdits(prices, edits), {
    intervalMs: PRICE_EDITS_REFRESH_MS,
    onError: (err) => logger.warn({ err: (err as Error).message }, 'reading the LLM price edits failed; next time'),
  });
  app.addHook('onClose', async () => keeper.stop());
  const mapDeps = { repo: sourceMapsRepo(adapters.relational, files), limits: sourceMaps, pool: maps, store: reads, retentionOf: retention, failed: failedMaps() };
  await app.register(async (api) => {
    api.addHook('onRequest', requirePrincipal([operator, ...(opts.authenticators ?? [])]));
    serveGroup(api, PROJECT_ROUTES, { repo, defaultRateLimit: opts.defaultRateLimitPerMinute });
    serveGroup(api, DATA_ROUTES, { relational: adapters.relational, defaultRetentionDays: opts.defaultRetentionDays });
    serveGroup(api, DELETION_ROUTES, adapters.relational);
    const readDeps = {
      reads,
      searches,
      retentionOf: retention,
      lagOf: opts.lagOf,
      prices,
      mergesOf: mergesLookup(adapters.relational),
      exports: exportSlots(),
    };
    for (const group of READ_API) serveGroup(api, group, readDeps);
    serveGroup(api, SCORE_ROUTES, { ...readDeps, publishScore: scorePublisher(adapters.messageLog, adapters.topics) });
    serveGroup(api, SAVED_QUERY_ROUTES, savedQueriesRepo(adapters.relational));
    serveGroup(api, PROMPT_ROUTES, { ...readDeps, relational: adapters.relational });
    serveGroup(api, TRIAGE_ROUTES, { reads, relational: adapters.relational, retentionOf: retention, mergesOf: readDeps.mergesOf });
    serveGroup(api, OWNERSHIP_ROUTES, { reads, relational: adapters.relational, retentionOf: retention, mergesOf: readDeps.mergesOf, publicUrl: opts.publicUrl });
    serveGroup(api, ALERT_ROUTES, { relational: adapters.relational, delivery: opts.delivery ?? deliveryOptionsOf(defaults().alerts), publicUrl: opts.publicUrl });
    serveGroup(api, SOURCE_MAP_ROUTES, mapDeps, (r) => !admitsUploadTokens(r));
    serveGroup(api, UPLOAD_TOKEN_ROUTES, tokens);
    serveGroup(api, LLM_PRICE_ROUTES, { relational: adapters.relational, prices, keeper });
  });
  // Source map uploads also admit the project's upload tokens (a build pipeline has one); never
  // its API key, which ships in browsers (docs/security.md).
  await app.register(async (api) => {
    api.addHook('onRequest', requirePrincipal([operator, ...(opts.authenticators ?? []), uploadTokenAuthenticator(tokens)]));
    takeMapsAsBytes(api, sourceMaps);
    serveGroup(api, SOURCE_MAP_ROUTES, mapDeps, admitsUploadTokens);
  });
  const worker = startDeletionWorker(deletionsRepo(adapters.relational), adapters.columnStore, logger, {
    graceMs: opts.deletionGraceMs,
    publish: deletionPublisher(adapters.messageLog, adapters.topics),
    cluster: opts.clickhouseCluster,
  });
  app.addHook('onClose', async () => worker.stop());
}
