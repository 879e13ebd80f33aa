import type { FastifyInstance } from 'fastify';
import type { LlmPriceTable, Logger } from '@devtrail/config';
import type { Adapters } from '@devtrail/runtime';
import { projectsRepo, savedQueriesRepo } from '@devtrail/relational-store';
import { operatorAuthenticator, requirePrincipal, type Authenticator } from './api/access.ts';
import { registerAdminRoutes } from './api/admin-routes.ts';
import { registerReadRoutes } from './api/read-routes.ts';
import { registerExploreRoutes } from './api/explore-routes.ts';
import { registerSavedQueryRoutes } from './api/saved-query-routes.ts';
import { defaultPrices } from './api/llm-estimates.ts';

export interface ControlPlaneOptions {
  operatorToken: string | undefined;
  defaultRateLimitPerMinute: number;
  /** Extra ways to authenticate (the web UI's sessions). */
  authenticators?: Authenticator[];
  /** Consumer lag for the ingestion-health view, when this process can see it. */
  lagOf?: () => Promise<unknown>;
  /** Prices behind estimated_cost_usd (config.llmPrices); the repository's table when unset. */
  llmPrices?: LlmPriceTable;
}

/** Registers /api/admin and /api/projects on an app (its own process, or the embedded one). */
export async function registerControlPlane(app: FastifyInstance, adapters: Adapters, logger: Logger, opts: ControlPlaneOptions): Promise<void> {
  if (!opts.operatorToken) logger.warn('DEVTRAIL_OPERATOR_TOKEN is not set: the admin and read APIs accept no operator calls');
  const repo = projectsRepo(adapters.relational);
  await app.register(async (api) => {
    api.addHook('onRequest', requirePrincipal([operatorAuthenticator(opts.operatorToken, async (id) => (await repo.get(id)) !== null), ...(opts.authenticators ?? [])]));
    registerAdminRoutes(api, repo, opts.defaultRateLimitPerMinute);
    registerReadRoutes(api, adapters.columnStore, opts.lagOf, opts.llmPrices);
    registerExploreRoutes(api, adapters.columnStore, opts.llmPrices ?? defaultPrices());
    registerSavedQueryRoutes(api, savedQueriesRepo(adapters.relational));
  });
}
