import type { FastifyInstance } from 'fastify';
import type { LlmPriceTable, Logger } from '@devtrail/config';
import type { Adapters } from '@devtrail/runtime';
import { deletionsRepo, projectsRepo } from '@devtrail/relational-store';
import { operatorAuthenticator, requirePrincipal, type Authenticator } from './api/access.ts';
import { registerAdminRoutes } from './api/admin-routes.ts';
import { registerReadRoutes } from './api/read-routes.ts';
import { registerDataRoutes } from './data/data-routes.ts';
import { retentionLookup } from './data/project-retention.ts';
import { startDeletionWorker } from './data/deletion-worker.ts';

export interface ControlPlaneOptions {
  operatorToken: string | undefined;
  defaultRateLimitPerMinute: number;
  /** RETENTION_DAYS: the retention of kinds a project did not set (docs/data.md). */
  defaultRetentionDays: number;
  /** DELETION_GRACE_MS: how long a project's deletion waits before it checks that nothing came back. */
  deletionGraceMs: number;
  /** Extra ways to authenticate (the web UI's sessions). */
  authenticators?: Authenticator[];
  /** Consumer lag for the ingestion-health view, when this process can see it. */
  lagOf?: () => Promise<unknown>;
  /** Prices behind estimated_cost_usd (config.llmPrices); the repository's table when unset. */
  llmPrices?: LlmPriceTable;
}

/** Registers /api/admin and /api/projects on an app (its own process, or the embedded one), and runs deletions until the app closes. */
export async function registerControlPlane(app: FastifyInstance, adapters: Adapters, logger: Logger, opts: ControlPlaneOptions): Promise<void> {
  if (!opts.operatorToken) logger.warn('DEVTRAIL_OPERATOR_TOKEN is not set: the admin and read APIs accept no operator calls');
  const repo = projectsRepo(adapters.relational);
  await app.register(async (api) => {
    api.addHook('onRequest', requirePrincipal([operatorAuthenticator(opts.operatorToken, async (id) => (await repo.get(id)) !== null), ...(opts.authenticators ?? [])]));
    registerAdminRoutes(api, repo, opts.defaultRateLimitPerMinute);
    registerDataRoutes(api, adapters.relational, opts.defaultRetentionDays);
    registerReadRoutes(api, adapters.columnStore, retentionLookup(adapters.relational, opts.defaultRetentionDays), opts.lagOf, opts.llmPrices);
  });
  const worker = startDeletionWorker(deletionsRepo(adapters.relational), adapters.columnStore, logger, { graceMs: opts.deletionGraceMs });
  app.addHook('onClose', async () => worker.stop());
}
