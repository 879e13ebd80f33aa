// Sentry's everyday API on devtrail's scopes (docs/sdk.md#scopes): captureMessage, setContext,
// setExtra, withScope, and a scope per request that follows awaits (AsyncLocalStorage), so what
// a handler sets stays on its own request's events while other requests run.
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../src/node.js';
import { Scope } from '../src/scope.js';
import { bodiesAt, makeClient } from './helpers/client.js';

afterEach(() => {
  vi.restoreAllMocks();
});

const errors = (calls: Parameters<typeof bodiesAt>[0]) => bodiesAt(calls, '/ingest/errors');
const tick = () => new Promise((r) => setTimeout(r, 1));

describe('captureMessage', () => {
  it('reports a message as an error report: its level gives the severity, grouped by its text', async () => {
    const { client, calls } = makeClient({ captureUncaught: false, breadcrumbs: false });
    client.captureMessage('cache cold');
    client.captureMessage('disk almost full', 'warning');
    client.captureMessage('payment provider down', { level: 'fatal', context: { provider: 'acme' }, fingerprint: ['provider-down'] });
    await client.flush();
    expect(errors(calls).map((e) => [e.error_message, e.severity, e.context.level, e.context.error_type])).toEqual([
      ['cache cold', 'low', 'info', 'message'],
      ['disk almost full', 'medium', 'warning', 'message'],
      ['payment provider down', 'critical', 'fatal', 'message'],
    ]);
    expect(errors(calls)[2]).toMatchObject({ stack_trace: 'payment provider down', context: { provider: 'acme' }, fingerprint: ['provider-down'] });
  });
});

describe('setContext and setExtra', () => {
  it("put named objects and loose values on error reports' context; null removes a context", async () => {
    const { client, calls } = makeClient({ captureUncaught: false, breadcrumbs: false });
    client.setContext('order', { id: 42, total: 9.5 });
    client.setContext('gone', { x: 1 });
    client.setContext('gone', null);
    client.setExtra('attempt', 3);
    client.setExtras({ queue: 'invoices' });
    client.captureError(new Error('boom'));
    client.captureMessage('note');
    await client.flush();
    for (const e of errors(calls)) {
      expect(e.context).toMatchObject({ order: { id: 42, total: 9.5 }, extra: { attempt: 3, queue: 'invoices' } });
      expect(e.context.gone).toBeUndefined();
    }
  });
});

describe('withScope and the request scope', () => {
  it('what a withScope block sets stays in the block', async () => {
    const { client, calls } = makeClient({ captureUncaught: false, breadcrumbs: false });
    client.setTag('app', 'shop');
    await client.withScope(async (scope) => {
      scope.setTag('job', 'nightly');
      client.setUser('u-7');
      client.setContext('batch', { n: 1 });
      client.addBreadcrumb({ type: 'job', message: 'started' });
      await tick();
      client.captureError(new Error('inside'));
    });
    client.captureError(new Error('outside'));
    await client.flush();
    const [inside, outside] = errors(calls);
    expect(inside).toMatchObject({ user_id: 'u-7', context: { app: 'shop', job: 'nightly', batch: { n: 1 } } });
    expect(inside.breadcrumbs.map((b: any) => b.message)).toEqual(['started']);
    expect(outside.user_id).toBeUndefined();
    expect(outside.context).toMatchObject({ app: 'shop' });
    expect(outside.context.job).toBeUndefined();
    expect(outside.context.batch).toBeUndefined();
    expect(outside.breadcrumbs).toBeUndefined();
  });

  it('two requests interleaving across awaits keep their own user, tags and breadcrumbs', async () => {
    const { client, calls } = makeClient({ captureUncaught: false, breadcrumbs: false });
    const handler = async (user: string, delay: number) => {
      client.setUser(user);
      client.setTag('who', user);
      client.addBreadcrumb({ type: 'step', message: `${user} loaded` });
      await new Promise((r) => setTimeout(r, delay));
      client.captureError(new Error(`failed for ${user}`));
    };
    // What the middleware does per request: a fresh scope, in the request's context.
    await Promise.all([client.withScope(() => handler('ada', 20)), client.withScope(() => handler('bob', 5))]);
    await client.flush();
    const byUser = Object.fromEntries(errors(calls).map((e) => [e.user_id, e]));
    expect(byUser.ada).toMatchObject({ error_message: 'failed for ada', context: { who: 'ada' } });
    expect(byUser.bob).toMatchObject({ error_message: 'failed for bob', context: { who: 'bob' } });
    expect(byUser.ada.breadcrumbs.map((b: any) => b.message)).toEqual(['ada loaded']);
    expect(byUser.bob.breadcrumbs.map((b: any) => b.message)).toEqual(['bob loaded']);
  });

  it('inside a request, withScope starts from a copy of the request scope', () => {
    const request = new Scope(10);
    request.setTag('route', '/orders');
    request.setContext('order', { id: 1 });
    request.addBreadcrumb({ type: 'x', message: 'one' });
    const copy = request.clone();
    copy.setTag('route', '/changed');
    copy.addBreadcrumb({ type: 'x', message: 'two' });
    expect(request.tags).toEqual({ route: '/orders' });
    expect(request.breadcrumbs.map((b) => b.message)).toEqual(['one']);
    expect(copy.contexts).toEqual({ order: { id: 1 } });
    expect(copy.breadcrumbs.map((b) => b.message)).toEqual(['one', 'two']);
  });
});
