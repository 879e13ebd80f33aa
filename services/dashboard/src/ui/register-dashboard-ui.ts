import type { FastifyInstance } from 'fastify';
import type { Config, LlmPriceTable, Logger } from '@devtrail/config';
import type { Adapters } from '@devtrail/runtime';
import { usersRepo } from '@devtrail/relational-store';
import type { Authenticator } from '../api/access.ts';
import { registerAuthRoutes } from '../auth/auth-routes.ts';
import { loginLimiter } from '../auth/login-limiter.ts';
import { sessionAuthenticator } from '../auth/session-authenticator.ts';
import { dashboardCookies } from '../auth/session-cookie.ts';
import { sessions as sessionStore } from '../auth/sessions.ts';
import { forgetSetupCode, issueSetupCode, type IssuedSetupCode } from '../auth/setup-code.ts';
import { registerUiPages } from './ui-pages.ts';

export interface DashboardUiOptions {
  operatorToken: string | undefined;
  /** Cookies and session timeouts (config.dashboard). */
  security: Config['dashboard'];
  /** Where the setup code is written while no owner exists (config.dataDir). */
  dataDir: string;
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
  /** The setup code made at this start, while no owner exists: show it on a terminal only. */
  setupCode: IssuedSetupCode | null;
}

/** Sessions, trusted devices, setup codes and login counts nobody needs any more go this often. */
const PRUNE_EVERY_MS = 10 * 60_000;

/** The web UI: pages, static files and /auth (users and sessions). */
export async function registerDashboardUi(app: FastifyInstance, adapters: Adapters, logger: Logger, opts: DashboardUiOptions): Promise<DashboardUi> {
  const users = usersRepo(adapters.relational);
  const cookies = dashboardCookies(opts.security.secureCookies);
  const sessions = sessionStore(users, cookies, { idleTimeoutMs: opts.security.sessionIdleTimeoutMs, maxAgeMs: opts.security.sessionMaxAgeMs });
  const limiter = loginLimiter(adapters.relational, users, cookies);
  const authenticator = sessionAuthenticator(users, sessions);
  registerAuthRoutes(app, users, sessions, limiter, {
    uiConfig: { ingest_port: opts.ingestPort ?? null },
    operatorToken: opts.operatorToken,
    onOwnerCreated: () => forgetSetupCode(opts.dataDir),
  });
  await registerUiPages(app);

  const prune = setInterval(() => {
    Promise.all([sessions.prune(), limiter.prune()]).catch((err) => logger.debug({ err: (err as Error).message }, 'dashboard: pruning failed; next time'));
  }, PRUNE_EVERY_MS);
  prune.unref();
  app.addHook('onClose', async () => clearInterval(prune));

  const setupCode = await issueSetupCode(users, opts.dataDir, (err) =>
    logger.warn({ err: err.message }, 'dashboard: cannot write the setup code file; claim the dashboard with the code shown on the terminal or the operator token'),
  );
  if (setupCode)
    logger.info(
      { setup_code_file: setupCode.file },
      'dashboard: no owner yet; claiming it needs the setup code (shown on the terminal, kept in setup_code_file) or the operator token',
    );
  return { authenticator, setupCode };
}
