import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createLogger, loadConfig } from '@devtrail/config';
import { createHttpApp } from '@devtrail/http';
import { migratedPglite } from '../../../../test/support/pglite-template.ts';
import { embeddedAdapters } from '../../../../test/support/embedded-adapters.ts';
import { registerControlPlane, registerDashboardUi, type DashboardUi } from '../../src/index.ts';

// The dashboard's routes through the app's front door (inject), over the in-process stores,
// and a cookie-keeping "browser" at a client address of its choice.

export const OPERATOR = 'dto_operator_token_for_tests_0123456789';

export interface AuthApp {
  app: FastifyInstance;
  adapters: Awaited<ReturnType<typeof embeddedAdapters>>;
  ui: DashboardUi;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * env: settings as environment variables (DASHBOARD_SECURE_COOKIES, TRUST_PROXY, ...).
 * beside: another app whose column store and log this one shares (chdb allows one data
 * directory per process), with a relational store of its own: a second fresh install.
 */
export async function authApp(env: Record<string, string> = {}, beside?: AuthApp): Promise<AuthApp> {
  const config = loadConfig(env);
  const adapters = beside ? await besideOf(beside.adapters) : await embeddedAdapters();
  const dataDir = mkdtempSync(join(tmpdir(), 'dt-auth-'));
  const logger = createLogger('silent', 'test');
  const app = await createHttpApp(logger, 1024 * 1024, { trustProxy: config.trustProxy });
  const ui = await registerDashboardUi(app, adapters, logger, { operatorToken: OPERATOR, security: config.dashboard, dataDir, defaultRetentionDays: 30 });
  await registerControlPlane(app, adapters, logger, {
    operatorToken: OPERATOR,
    defaultRateLimitPerMinute: 100,
    defaultRetentionDays: 30,
    deletionGraceMs: 1000,
    authenticators: [ui.authenticator],
  });
  await app.ready();
  return {
    app,
    adapters,
    ui,
    dataDir,
    async close() {
      await app.close();
      await adapters.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function besideOf(base: AuthApp['adapters']): Promise<AuthApp['adapters']> {
  const relational = await migratedPglite();
  return { ...base, relational, close: () => relational.close() };
}

export class Browser {
  cookies = new Map<string, string>();
  csrf = '';
  constructor(
    private app: FastifyInstance,
    public ip = '10.1.1.1',
  ) {}
  async call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method,
      url,
      remoteAddress: this.ip,
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(method === 'GET' ? {} : { 'x-csrf-token': this.csrf }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const c of res.cookies as Array<{ name: string; value: string; maxAge?: number }>) {
      if (c.maxAge === 0 || c.value === '') this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }
  async me() {
    const r = await this.call('GET', '/auth/me');
    this.csrf = r.json().csrf_token;
    return r.json();
  }
  async login(username: string, password: string, headers: Record<string, string> = {}) {
    await this.me();
    const r = await this.call('POST', '/auth/login', { username, password }, headers);
    if (r.statusCode === 200) await this.me();
    return r;
  }
  async setup(username: string, password: string, setupCode: string) {
    await this.me();
    const r = await this.call('POST', '/auth/setup', { username, password, setup_code: setupCode });
    if (r.statusCode === 201) await this.me();
    return r;
  }
}
