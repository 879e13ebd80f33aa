import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@devtrail/http';
import { dashboardOpenApi } from '../src/index.ts';
import { authApp, Browser, type AuthApp } from './support/inject-browser.ts';

// Accounts through the app's front door (inject): changing a password, disabling a user,
// the read-only viewer, and the idle timeout.

let t: AuthApp;
let owner: Browser;
let projectId: string;
beforeAll(async () => {
  t = await authApp();
  owner = new Browser(t.app);
  expect((await owner.setup('owner', 'owner-password', t.ui.setupCode!.code)).statusCode).toBe(201);
  projectId = (await owner.call('POST', '/api/admin/projects', { name: 'shared' })).json().project.id;
});
afterAll(async () => t?.close());

const addUser = async (username: string, password: string, role?: 'member' | 'viewer') => {
  const r = await owner.call('POST', '/auth/users', { username, password, ...(role ? { role } : {}) });
  expect(r.statusCode, r.body).toBe(201);
  expect((await owner.call('POST', `/auth/projects/${projectId}/members`, { username })).statusCode).toBe(201);
  return r.json().user as { id: string; role: string };
};

describe('accounts', () => {
  it('changes a password: the current one is needed, and every other session ends', async () => {
    await addUser('paula', 'paula-password-1');
    const laptop = new Browser(t.app, '10.4.4.1');
    const phone = new Browser(t.app, '10.4.4.2');
    expect((await laptop.login('paula', 'paula-password-1')).statusCode).toBe(200);
    expect((await phone.login('paula', 'paula-password-1')).statusCode).toBe(200);
    const wrong = await laptop.call('POST', '/auth/password', { current_password: 'not-my-password', new_password: 'paula-password-2' });
    expect(wrong.statusCode).toBe(403);
    expect((await laptop.call('POST', '/auth/password', { current_password: 'paula-password-1', new_password: 'short' })).statusCode).toBe(400);
    const changed = await laptop.call('POST', '/auth/password', { current_password: 'paula-password-1', new_password: 'paula-password-2' });
    expect(changed.statusCode).toBe(200);
    await laptop.me();
    expect((await laptop.call('GET', '/api/admin/projects')).statusCode).toBe(200);
    expect((await phone.call('GET', '/api/admin/projects')).statusCode).toBe(401);
    expect((await new Browser(t.app, '10.4.4.3').login('paula', 'paula-password-1')).statusCode).toBe(401);
    expect((await new Browser(t.app, '10.4.4.4').login('paula', 'paula-password-2')).statusCode).toBe(200);
  });

  it('disables a user: their sessions end at once and they cannot log in until enabled again', async () => {
    const user = await addUser('dora', 'dora-password-1');
    const dora = new Browser(t.app, '10.5.5.1');
    expect((await dora.login('dora', 'dora-password-1')).statusCode).toBe(200);
    const disabled = await owner.call('PATCH', `/auth/users/${user.id}`, { disabled: true });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().user).toMatchObject({ username: 'dora', disabled: true });
    expect((await dora.call('GET', '/api/admin/projects')).statusCode).toBe(401);
    expect((await new Browser(t.app, '10.5.5.2').login('dora', 'dora-password-1')).json()).toEqual({ error: 'Invalid username or password' });
    expect((await owner.call('PATCH', `/auth/users/${user.id}`, { disabled: false })).statusCode).toBe(200);
    expect((await new Browser(t.app, '10.5.5.3').login('dora', 'dora-password-1')).statusCode).toBe(200);
    // Only the owner manages accounts, and the owner's own account cannot be disabled.
    expect((await dora.call('PATCH', `/auth/users/${user.id}`, { role: 'viewer' })).statusCode).toBe(401);
    const ownerId = (await owner.me()).user.id;
    expect((await owner.call('PATCH', `/auth/users/${ownerId}`, { disabled: true })).statusCode).toBe(409);
    expect((await owner.call('PATCH', '/auth/users/00000000-0000-4000-8000-000000000000', { disabled: true })).statusCode).toBe(404);
  });

  it('ends a session idle for longer than SESSION_IDLE_TIMEOUT_MINUTES', async () => {
    await addUser('ivan', 'ivan-password-1');
    const ivan = new Browser(t.app, '10.6.6.1');
    expect((await ivan.login('ivan', 'ivan-password-1')).statusCode).toBe(200);
    expect((await ivan.call('GET', '/api/admin/projects')).statusCode).toBe(200);
    await t.adapters.relational.query("UPDATE sessions SET last_seen_at = now() - interval '31 minutes' WHERE user_id = (SELECT id FROM users WHERE username = 'ivan')");
    expect((await ivan.call('GET', '/api/admin/projects')).statusCode).toBe(401);
  });
});

describe('the viewer role', () => {
  let vic: Browser;
  beforeAll(async () => {
    const user = await addUser('vic', 'vic-password-12', 'viewer');
    expect(user.role).toBe('viewer');
    vic = new Browser(t.app, '10.7.7.1');
    expect((await vic.login('vic', 'vic-password-12')).statusCode).toBe(200);
  });

  it('reads the projects it belongs to', async () => {
    expect((await vic.call('GET', '/api/admin/projects')).json().projects.map((p: { id: string }) => p.id)).toEqual([projectId]);
    for (const path of ['logs', 'errors', 'error-groups', 'traces', 'spans', 'llm-usage', 'ingestion']) {
      expect((await vic.call('GET', `/api/projects/${projectId}/${path}`)).statusCode, path).toBe(200);
    }
  });

  it('is refused every write of the admin API (every documented write) and of the dashboard', async () => {
    const before = (await owner.call('GET', `/api/admin/projects/${projectId}`)).json();
    const doc = dashboardOpenApi() as { paths: Record<string, Record<string, unknown>> };
    const writes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => ({ method: m.toUpperCase() as 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: path.replace('{id}', projectId) })),
    );
    expect(writes.length).toBeGreaterThanOrEqual(5);
    const bodies: Record<string, unknown> = { POST: { name: 'mine' }, PUT: { origins: [], rate_limit_per_minute: 1, secret: 'a-drain-secret' } };
    for (const w of writes) {
      const r = await vic.call(w.method, w.url, bodies[w.method] ?? {});
      expect([w.method, w.url, r.statusCode, r.json()]).toEqual([w.method, w.url, 403, { error: ERRORS.readOnly }]);
    }
    // The dashboard's own writes: users and membership are the owner's.
    const userId = (await vic.me()).user.id;
    for (const [method, url, body] of [
      ['POST', '/auth/users', { username: 'sneaky', password: 'sneaky-password' }],
      ['PATCH', `/auth/users/${userId}`, { role: 'member' }],
      ['POST', `/auth/projects/${projectId}/members`, { username: 'vic' }],
      ['DELETE', `/auth/projects/${projectId}/members/${userId}`, undefined],
    ] as const) {
      expect((await vic.call(method, url, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await owner.call('GET', `/api/admin/projects/${projectId}`)).json()).toEqual(before);
    expect((await owner.call('GET', '/api/admin/projects')).json().projects).toHaveLength(1);
  });
});
