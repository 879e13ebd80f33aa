import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createLogger } from '@devtrail/config';
import { createHttpApp } from '@devtrail/http';
import { embeddedAdapters } from '../../../test/support/embedded-adapters.ts';
import { registerControlPlane, registerDashboardUi } from '../src/index.ts';

// Users and sessions through the app's front door (inject): owner setup, cookies, CSRF,
// the login limit, membership, and the operator token beside sessions.

const OPERATOR = 'dto_operator_token_for_tests_0123456789';

class Browser {
  cookies = new Map<string, string>();
  csrf = '';
  constructor(
    private app: FastifyInstance,
    private ip = '10.1.1.1',
  ) {}
  async call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
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
  async login(username: string, password: string) {
    await this.me();
    const r = await this.call('POST', '/auth/login', { username, password });
    if (r.statusCode === 200) await this.me();
    return r;
  }
}

describe('dashboard sessions and authorisation (inject)', () => {
  let adapters: Awaited<ReturnType<typeof embeddedAdapters>>;
  let app: FastifyInstance;

  beforeAll(async () => {
    adapters = await embeddedAdapters();
    const logger = createLogger('silent', 'test');
    app = await createHttpApp(logger, 1024 * 1024);
    const ui = await registerDashboardUi(app, adapters, logger, { operatorToken: OPERATOR, defaultRetentionDays: 30 });
    await registerControlPlane(app, adapters, logger, {
      operatorToken: OPERATOR,
      defaultRateLimitPerMinute: 100,
      defaultRetentionDays: 30,
      deletionGraceMs: 1000,
      authenticators: [ui.authenticator],
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await adapters?.close();
  });

  it('creates the owner once, only with the pre-session CSRF token, and sets a safe session cookie', async () => {
    const b = new Browser(app);
    const me = await b.me();
    expect(me).toMatchObject({ user: null, setup_needed: true });
    expect(b.cookies.get('dt_presession')).toBe(me.csrf_token);
    const noToken = await b.call('POST', '/auth/setup', { username: 'Owner', password: 'owner-password' }, { 'x-csrf-token': '' });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json()).toEqual({ error: 'Missing or invalid CSRF token' });
    const weak = await b.call('POST', '/auth/setup', { username: 'owner', password: 'short' });
    expect(weak.statusCode).toBe(400);
    const ok = await b.call('POST', '/auth/setup', { username: 'Owner', password: 'owner-password' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().user).toMatchObject({ username: 'owner', is_owner: true });
    const setCookie = String(ok.headers['set-cookie']);
    expect(setCookie).toMatch(/dt_session=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax/);
    expect(setCookie).not.toContain('Secure');
    expect((await b.me()).user.username).toBe('owner');

    const late = new Browser(app);
    await late.me();
    expect((await late.call('POST', '/auth/setup', { username: 'second', password: 'second-password' })).statusCode).toBe(409);
  });

  it('marks cookies Secure when the request came over https through the proxy', async () => {
    const b = new Browser(app);
    await b.me();
    const r = await b.call('POST', '/auth/login', { username: 'owner', password: 'owner-password' }, { 'x-forwarded-proto': 'https' });
    expect(r.statusCode).toBe(200);
    expect(String(r.headers['set-cookie'])).toMatch(/dt_session=[^;]+;.*HttpOnly; Secure; SameSite=Lax/);
  });

  it('limits failed logins per username and address (5 per 15 minutes)', async () => {
    const attacker = new Browser(app, '10.9.9.9');
    for (let i = 0; i < 5; i++) expect((await attacker.login('owner', `guess-${i}`)).statusCode).toBe(401);
    const blocked = await attacker.login('owner', 'owner-password');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
    expect(blocked.json()).toEqual({ error: 'Too many failed logins; try again later' });
    // The owner, from their own address, is not locked out.
    expect((await new Browser(app, '10.1.1.2').login('owner', 'owner-password')).statusCode).toBe(200);
    // Unknown users get the same answer as a wrong password.
    expect((await new Browser(app, '10.1.1.3').login('nobody', 'whatever-pass')).json()).toEqual({ error: 'Invalid username or password' });
  });

  it('lets sessions use the APIs, with CSRF on every mutating request', async () => {
    const b = new Browser(app);
    await b.login('owner', 'owner-password');
    const noCsrf = await b.call('POST', '/api/admin/projects', { name: 'p1' }, { 'x-csrf-token': '' });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json()).toEqual({ error: 'Missing or invalid CSRF token' });
    const created = await b.call('POST', '/api/admin/projects', { name: 'p1' });
    expect(created.statusCode).toBe(201);
    const id = created.json().project.id;
    expect((await b.call('GET', `/api/projects/${id}/logs`)).statusCode).toBe(200);
    expect((await b.call('GET', `/auth/projects/${id}/members`)).json().members.map((m: { username: string }) => m.username)).toEqual(['owner']);
    // The operator token needs no CSRF token; no credentials at all is a 401.
    expect((await app.inject({ method: 'GET', url: '/api/admin/projects', headers: { authorization: `Bearer ${OPERATOR}` } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/admin/projects' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/admin/projects', headers: { cookie: 'dt_session=forged' } })).statusCode).toBe(401);
  });

  it('shows users only the projects they are members of; the owner grants membership', async () => {
    const owner = new Browser(app);
    await owner.login('owner', 'owner-password');
    expect((await owner.call('POST', '/auth/users', { username: 'Dana', password: 'dana-password' })).statusCode).toBe(201);
    expect((await owner.call('POST', '/auth/users', { username: 'dana', password: 'dana-password' })).statusCode).toBe(409);
    const secret = (await owner.call('POST', '/api/admin/projects', { name: 'secret' })).json().project.id;

    const dana = new Browser(app, '10.2.2.2');
    expect((await dana.login('dana', 'dana-password')).statusCode).toBe(200);
    const names = async () => (await dana.call('GET', '/api/admin/projects')).json().projects.map((p: { name: string }) => p.name);
    expect(await names()).toEqual([]);
    expect((await dana.call('GET', `/api/projects/${secret}/logs`)).statusCode).toBe(404);
    expect((await dana.call('GET', `/api/projects/${secret}/error-activity?fingerprints=${'a'.repeat(64)}`)).statusCode).toBe(404);
    expect((await dana.call('PUT', `/api/admin/projects/${secret}/rate-limit`, { rate_limit_per_minute: 1 })).statusCode).toBe(404);
    expect((await dana.call('GET', '/auth/users')).statusCode).toBe(403);
    expect((await dana.call('POST', `/auth/projects/${secret}/members`, { username: 'dana' })).statusCode).toBe(403);
    const hers = (await dana.call('POST', '/api/admin/projects', { name: 'hers' })).json().project.id;
    expect(await names()).toEqual(['hers']);
    expect((await dana.call('GET', `/api/projects/${hers}/llm-breakdown`)).statusCode).toBe(200);

    expect((await owner.call('POST', `/auth/projects/${secret}/members`, { username: 'dana' })).statusCode).toBe(201);
    expect((await names()).sort()).toEqual(['hers', 'secret']);
    const danaId = (await dana.me()).user.id;
    expect((await owner.call('DELETE', `/auth/projects/${secret}/members/${danaId}`)).statusCode).toBe(200);
    expect(await names()).toEqual(['hers']);
  });

  it('ends the session on logout', async () => {
    const b = new Browser(app);
    await b.login('owner', 'owner-password');
    const token = b.cookies.get('dt_session')!;
    expect((await b.call('POST', '/auth/logout')).statusCode).toBe(200);
    expect(b.cookies.has('dt_session')).toBe(false);
    const replay = await app.inject({ method: 'GET', url: '/api/admin/projects', headers: { cookie: `dt_session=${token}` } });
    expect(replay.statusCode).toBe(401);
  });

  it('serves the UI document with a CSP and the vendored modules with content-versioned URLs', async () => {
    const page = await app.inject({ method: 'GET', url: '/projects/anything/logs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self' 'sha256-");
    const map = JSON.parse(/<script type="importmap">(.*?)<\/script>/.exec(page.body)![1]);
    expect(Object.keys(map.imports)).toEqual(['preact', 'preact/hooks', 'htm', 'htm/preact', 'uplot']);
    const preact = await app.inject({ method: 'GET', url: map.imports.preact, headers: { 'accept-encoding': 'gzip' } });
    expect(preact.statusCode).toBe(200);
    expect(preact.headers['content-encoding']).toBe('gzip');
    expect(preact.headers['cache-control']).toContain('immutable');
    expect((await app.inject({ method: 'GET', url: '/ui/vendor/nope.js' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/ui/assets/js/main.js' })).headers['content-type']).toContain('javascript');
    expect((await app.inject({ method: 'GET', url: '/ui/assets/../../src/auth/password.ts' })).statusCode).toBe(404);
  });
});
