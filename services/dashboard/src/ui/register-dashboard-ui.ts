import type { FastifyInstance } from 'fastify';
import type { LlmPriceTable, Logger } from '@devtrail/config';
import type { Adapters } from '@devtrail/runtime';
import { projectsRepo, usersRepo } from '@devtrail/relational-store';
import { operatorAuthenticator, type Authenticator } from '../api/access.ts';
import { registerAuthRoutes } from '../auth/auth-routes.ts';
import { sessionAuthenticator } from '../auth/session-authenticator.ts';
import { registerUiApiRoutes } from './ui-api-routes.ts';
import { retentionLookup } from '../data/project-retention.ts';
import { registerUiPages } from './ui-pages.ts';

export interface DashboardUiOptions {
  operatorToken: string | undefined;
  /** The receiver's port when it runs as another process on the same host (distributed mode); unset when it shares this app. */
  ingestPort?: number;
  /** Prices behind estimated_cost_usd (config.llmPrices); the repository's table when unset. */
  llmPrices?: LlmPriceTable;
  /** RETENTION_DAYS: the retention of kinds a project did not set (docs/data.md). */
  defaultRetentionDays: number;
}

export interface DashboardUi {
  /** Pass to registerControlPlane({ authenticators }) so the APIs accept sessions too. */
  authenticator: Authenticator;
}

/** The web UI: pages, static files, /auth (users and sessions) and the UI's chart reads. */
export async function registerDashboardUi(app: FastifyInstance, adapters: Adapters, logger: Logger, opts: DashboardUiOptions): Promise<DashboardUi> {
  const users = usersRepo(adapters.relational);
  const authenticator = sessionAuthenticator(users);
  registerAuthRoutes(app, users, { uiConfig: { ingest_port: opts.ingestPort ?? null } });
  const projects = projectsRepo(adapters.relational);
  const operator = operatorAuthenticator(opts.operatorToken, async (id) => (await projects.get(id)) !== null);
  registerUiApiRoutes(app, adapters.columnStore, [operator, authenticator], retentionLookup(adapters.relational, opts.defaultRetentionDays), opts.llmPrices);
  await registerUiPages(app);
  if ((await users.count()) === 0) logger.info('dashboard: no user yet; the first visit to the web UI creates the owner account');
  return { authenticator };
}
