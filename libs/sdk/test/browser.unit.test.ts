// Browser behaviour, simulated in Node by stubbing window and document.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installGlobalErrorHandlers } from '../src/browser/global-errors.js';
import { propagatesTo } from '../src/browser/http-tracing.js';
import { bodiesAt, logsIn, makeClient } from './helpers/client.js';

let doc: EventTarget & { visibilityState: string };

beforeEach(() => {
  doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('document', doc);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('browser client', () => {
  it('sends with fetch keepalive by default', async () => {
    const { client, calls } = makeClient();
    client.captureError(new Error('x'));
    await client.flush();
    expect(calls[0].init.keepalive).toBe(true);
  });

  it('flushes pending logs when the page is hidden', async () => {
    const { client, calls } = makeClient({ flushIntervalMs: 60_000 });
    client.logger.info('before unload');
    expect(calls).toHaveLength(0);
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(logsIn(calls).map((l) => l.message)).toEqual(['before unload']));
    await client.close();
  });

  it('reports window errors and unhandled rejections until uninstalled', async () => {
    const { client, calls } = makeClient({ captureUncaught: false });
    const target = new EventTarget();
    const uninstall = installGlobalErrorHandlers(client, target);
    target.dispatchEvent(Object.assign(new Event('error'), { error: new Error('render failed'), filename: 'app.js', lineno: 3, colno: 9 }));
    target.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: new Error('fetch rejected') }));
    uninstall();
    target.dispatchEvent(Object.assign(new Event('error'), { error: new Error('after uninstall') }));
    await client.flush();
    const reports = bodiesAt(calls, '/ingest/errors');
    expect(reports.map((r) => [r.error_message, r.severity, r.context.source])).toEqual([
      ['render failed', 'high', 'window.onerror'],
      ['fetch rejected', 'high', 'unhandledrejection'],
    ]);
    expect(reports[0].context).toMatchObject({ filename: 'app.js', lineno: 3, colno: 9 });
  });

  it('defaults to window as the event target (a client that does not install the handlers itself)', () => {
    const { client } = makeClient({ captureUncaught: false });
    const win = globalThis.window as unknown as EventTarget;
    const add = vi.spyOn(win, 'addEventListener');
    installGlobalErrorHandlers(client)();
    expect(add.mock.calls.map((c) => c[0])).toEqual(['error', 'unhandledrejection']);
  });
});

describe('tracePropagationTargets', () => {
  it("the page's own origin always; another only when listed, by origin, path prefix or pattern", () => {
    vi.stubGlobal('location', new URL('https://shop.example.com/cart'));
    const to = (url: string, targets: Array<string | RegExp> = []) => propagatesTo(new URL(url, 'https://shop.example.com/'), targets);
    expect(to('/api/buy')).toBe(true);
    expect(to('https://api.example.com/v1/orders')).toBe(false);
    expect(to('https://api.example.com/v1/orders', ['https://api.example.com'])).toBe(true);
    expect(to('https://api.example.com.evil.org/v1', ['https://api.example.com'])).toBe(false);
    expect(to('https://cdn.example.com/v2/x', ['https://cdn.example.com/v1/'])).toBe(false);
    expect(to('https://cdn.example.com/v1/x', ['https://cdn.example.com/v1/'])).toBe(true);
    expect(to('https://eu.api.example.com/x', [/^https:\/\/[a-z]+\.api\.example\.com\//])).toBe(true);
  });
});
