import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authApp, Browser, type AuthApp } from './support/inject-browser.ts';

// Owning an issue through the app's front door (docs/alerts.md, "Owning an issue"): assigning a
// group to a member of its project only, its history entry, comments and their bounds, and no
// way for a member of another project (or a viewer) to reach or change the group.

let t: AuthApp;
let owner: Browser;
let mine: string;
let theirs: string;
const fp = 'c'.repeat(64);

beforeAll(async () => {
  t = await authApp();
  owner = new Browser(t.app);
  expect((await owner.setup('owner', 'owner-password', t.ui.setupCode!.code)).statusCode).toBe(201);
  mine = (await owner.call('POST', '/api/admin/projects', { name: 'shop' })).json().project.id;
  theirs = (await owner.call('POST', '/api/admin/projects', { name: 'blog' })).json().project.id;
}, 60_000);
afterAll(async () => t?.close());

async function member(username: string, projectId: string, role?: 'viewer') {
  const r = await owner.call('POST', '/auth/users', { username, password: `${username}-password-long`, ...(role ? { role } : {}) });
  expect(r.statusCode, r.body).toBe(201);
  expect((await owner.call('POST', `/auth/projects/${projectId}/members`, { username })).statusCode).toBe(201);
  const b = new Browser(t.app, `10.9.${username.length}.${username.charCodeAt(0)}`);
  expect((await b.login(username, `${username}-password-long`)).statusCode).toBe(200);
  return { b, id: r.json().user.id as string };
}

describe('owning an issue', () => {
  it('assigns to a member of the project, records who and when, and filters by it', async () => {
    const mia = await member('mia', mine);
    const bo = await member('bo', theirs);
    const group = `/api/projects/${mine}/error-groups/${fp}`;
    expect((await mia.b.call('PUT', `${group}/assignee`, { user_id: bo.id })).statusCode).toBe(400); // not on this project
    const done = await mia.b.call('PUT', `${group}/assignee`, { user_id: mia.id });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ fingerprint: fp, assignee: { id: mia.id, name: 'mia' } });
    const triage = (await mia.b.call('GET', `${group}/triage`)).json();
    expect(triage.assignee).toEqual({ id: mia.id, name: 'mia' });
    expect(triage.assignable.map((p: { name: string }) => p.name)).toContain('mia');
    expect(triage.history.map((h: any) => [h.action, h.actor.name, h.details.assignee])).toEqual([['assign', 'mia', 'mia']]);
    // the list asked for "assigned to me" answers (no events stored: an empty list, not an error)
    expect((await mia.b.call('GET', `/api/projects/${mine}/error-groups/triage?assigned=me&status=all`)).statusCode).toBe(200);
    expect((await owner.call('GET', `/api/projects/${mine}/error-groups/triage?assigned=you`)).statusCode).toBe(400);
    // a group_assigned rule was notified of the assignment, once (re-assigning the same person is no change)
    const queued = async () =>
      (await t.adapters.relational.query<{ payload: any }>("SELECT payload FROM alert_notifications WHERE dedup_key LIKE 'assigned|%'")).map((r) => r.payload);
    expect(await queued()).toEqual([]);
    const rule = await owner.call('POST', `/api/projects/${mine}/alert-rules`, {
      name: 'assignments',
      type: 'group_assigned',
      destinations: [{ type: 'webhook', url: 'https://hooks.example.com/devtrail' }],
    });
    expect(rule.statusCode, rule.body).toBe(201);
    expect((await mia.b.call('PUT', `${group}/assignee`, { user_id: null })).statusCode).toBe(200);
    expect((await mia.b.call('PUT', `${group}/assignee`, { user_id: mia.id })).statusCode).toBe(200);
    expect((await mia.b.call('PUT', `${group}/assignee`, { user_id: mia.id })).statusCode).toBe(200);
    const sent = await queued();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ title: `Assigned to mia: ${fp}`, text: 'by mia', rule: { type: 'group_assigned' } });
    expect((await mia.b.call('PUT', `${group}/assignee`, { user_id: null })).json().assignee).toBeNull();
    expect((await mia.b.call('PUT', `${group}/assignee`, { user_id: 'not-a-uuid' })).statusCode).toBe(400);
  });

  it('takes comments of 1 to 2,000 characters, newest first', async () => {
    const group = `/api/projects/${mine}/error-groups/${fp}`;
    expect((await owner.call('POST', `${group}/comments`, { body: 'first' })).statusCode).toBe(201);
    const second = await owner.call('POST', `${group}/comments`, { body: '  the cache again  ' });
    expect(second.statusCode).toBe(201);
    expect(second.json().comment).toMatchObject({ body: 'the cache again', actor: { name: 'owner' } });
    for (const body of ['', '   ', 'x'.repeat(2001), 'nul\u0000byte'])
      expect((await owner.call('POST', `${group}/comments`, { body })).statusCode, JSON.stringify(body)).toBe(400);
    expect((await owner.call('POST', `${group}/comments`, { body: 'x', extra: 1 })).statusCode).toBe(400);
    expect((await owner.call('GET', `${group}/comments`)).json().comments.map((c: { body: string }) => c.body)).toEqual(['the cache again', 'first']);
  });

  it("keeps another project's members and viewers out", async () => {
    const ann = await member('ann', theirs);
    const vic = await member('vic', mine, 'viewer');
    const group = `/api/projects/${mine}/error-groups/${fp}`;
    for (const [method, path, body] of [
      ['PUT', `${group}/assignee`, { user_id: null }],
      ['GET', `${group}/comments`, undefined],
      ['POST', `${group}/comments`, { body: 'hi' }],
      ['GET', `${group}/similar`, undefined],
      ['GET', `${group}/triage`, undefined],
    ] as const)
      expect((await ann.b.call(method, path, body)).statusCode, `${method} ${path}`).toBe(404);
    expect((await vic.b.call('GET', `${group}/comments`)).statusCode).toBe(200);
    expect((await vic.b.call('POST', `${group}/comments`, { body: 'hi' })).statusCode).toBe(403);
    expect((await vic.b.call('PUT', `${group}/assignee`, { user_id: vic.id })).statusCode).toBe(403);
  });
});
