import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { authApp, Browser, OPERATOR, type AuthApp } from './support/inject-browser.ts';

// Users and sessions through the app's front door (inject): owner setup with the setup code,
// cookies, CSRF, sessions on the APIs, membership, the operator token beside sessions.
// Login defences: login-defences.test.ts; accounts and roles: accounts.test.ts.

const SESSION = '__Host-dt_session';

describe('dashboard sessions and authorisation (inject)', () => {
  let t: AuthApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    t = await authApp();
    app = t.app;
  });
  afterAll(async () => t?.close());

  it('creates the owner once, only with the pre-session CSRF token and the setup code, and sets a safe session cookie', async () => {
    const b = new Browser(app);
    const me = await b.me();
    expect(me).toMatchObject({ user: null, setup_needed: true });
    expect(b.cookies.get('__Host-dt_presession')).toBe(me.csrf_token);
    const code = t.ui.setupCode!.code;
    expect(readFileSync(join(t.dataDir, 'setup-code'), 'utf8').trim()).toBe(code);
    const noToken = await b.call('POST', '/auth/setup', { username: 'Owner', password: 'owner-password', setup_code: code }, { 'x-csrf-token': '' });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json()).toEqual({ error: 'Missing or invalid CSRF token' });
    const weak = await b.call('POST', '/auth/setup', { username: 'owner', password: 'short', setup_code: code });
    expect(weak.statusCode).toBe(400);
    // Case, spaces and dashes of the typed code do not matter.
    const ok = await b.call('POST', '/auth/setup', { username: 'Owner', password: 'owner-password', setup_code: ` ${code.toLowerCase().replaceAll('-', '')} ` });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().user).toMatchObject({ username: 'owner', is_owner: true, role: 'owner', disabled: false });
    const setCookie = String(ok.headers['set-cookie']);
    expect(setCookie).toMatch(/__Host-dt_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Lax/);
    expect((await b.me()).user.username).toBe('owner');
    // The code is gone: from the store and from the data directory.
    expect(existsSync(join(t.dataDir, 'setup-code'))).toBe(false);

    const late = new Browser(app);
    await late.me();
    expect((await late.call('POST', '/auth/setup', { username: 'second', password: 'second-password', setup_code: code })).statusCode).toBe(409);
    expect((await late.call('POST', '/auth/setup', { username: 'second', password: 'second-password', setup_code: OPERATOR })).statusCode).toBe(409);
  });

  it('makes cookies Secure and __Host- by the setting alone, never by X-Forwarded-Proto', async () => {
    const b = new Browser(app);
    const r = await b.login('owner', 'owner-password');
    expect(r.statusCode).toBe(200);
    expect(String(r.headers['set-cookie'])).toMatch(/__Host-dt_session=[^;]+;.*HttpOnly; Secure; SameSite=Lax/);
    // A cookie without the prefix (set by a sibling host, say) is not a session.
    expect((await app.inject({ method: 'GET', url: '/api/admin/projects', headers: { cookie: `dt_session=${b.cookies.get(SESSION)}` } })).statusCode).toBe(401);

    const plain = await authApp({ DASHBOARD_SECURE_COOKIES: 'false' }, t);
    try {
      const p = new Browser(plain.app);
      const setup = await p.setup('owner', 'owner-password', plain.ui.setupCode!.code);
      expect(setup.statusCode).toBe(201);
      const viaProxy = await new Browser(plain.app).login('owner', 'owner-password', { 'x-forwarded-proto': 'https' });
      expect(viaProxy.statusCode).toBe(200);
      expect(String(viaProxy.headers['set-cookie'])).toMatch(/(^|,)dt_session=[^;]+; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax/);
      expect(String(viaProxy.headers['set-cookie'])).not.toContain('Secure');
    } finally {
      await plain.close();
    }
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
    expect((await app.inject({ method: 'GET', url: '/api/admin/projects', headers: { cookie: `${SESSION}=forged` } })).statusCode).toBe(401);
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
    const token = b.cookies.get(SESSION)!;
    expect((await b.call('POST', '/auth/logout')).statusCode).toBe(200);
    expect(b.cookies.has(SESSION)).toBe(false);
    const replay = await app.inject({ method: 'GET', url: '/api/admin/projects', headers: { cookie: `${SESSION}=${token}` } });
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
