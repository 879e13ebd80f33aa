// Browser tracing in Chromium against the REAL receiver (devtrail's embedded process), read back
// through the read API (docs/sdk.md#browser-tracing): a page load gives a page-load span with
// web vitals and navigation timing; a click that fetches the page's own backend (Express with the
// SDK) gives a ui.click span whose fetch span the backend's span joins, in one trace; a fetch to
// a third party carries no traceparent.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, NO_BROWSER_REASON, openBrowser, type BrowserSession } from '../../../services/dashboard/test/support/browser.ts';
import { startEmbeddedProcess, type EmbeddedProcess } from '../../../test/support/embedded-process.ts';
import { createClient, type DevtrailClient } from '../src/node.js';
import { devtrailExpress } from '../src/express.js';
import { ensureBuilt, pkgDir } from './helpers/built-package.js';

const hasBrowser = browserAvailable();
let receiver: EmbeddedProcess;
let backend: DevtrailClient;
let appServer: Server;
let appUrl: string;
let thirdParty: Server;
let thirdUrl: string;
let browser: BrowserSession;
const backendTraceparents: string[] = [];
const thirdPartyHeaders: IncomingHttpHeaders[] = [];

const PAGE = (receiverUrl: string, key: string, third: string) => `<!doctype html><html><head><title>shop</title>
<script src="/devtrail.min.js"></script>
<script>window.client = devtrail.createClient({ apiKey: '${key}', baseUrl: '${receiverUrl}', service: 'web', release: 'r1' });</script>
</head><body><h1>A shop</h1><p>Everything you need, delivered.</p><button id="buy">Buy now</button><script>
  document.getElementById('buy').addEventListener('click', () => {
    const until = performance.now() + 60; while (performance.now() < until) {} // a slow handler: an interaction INP sees
    fetch('/api/buy', { method: 'POST' }).then((r) => r.json()).then((j) => (document.title = 'bought ' + j.order));
    fetch('${third}/pixel.gif').catch(() => {});
  });
</script></body></html>`;

beforeAll(async () => {
  if (!hasBrowser) return;
  await ensureBuilt();
  receiver = await startEmbeddedProcess();
  thirdParty = createServer((req, res) => {
    thirdPartyHeaders.push(req.headers);
    res.writeHead(200, { 'access-control-allow-origin': '*' }).end('gif');
  });
  await new Promise<void>((r) => thirdParty.listen(0, '127.0.0.1', r));
  // localhost, not 127.0.0.1: another origin than the page's.
  thirdUrl = `http://localhost:${(thirdParty.address() as AddressInfo).port}`;

  backend = createClient({ apiKey: receiver.project.key, baseUrl: receiver.url, service: 'api', release: 'r1', flushIntervalMs: 200 });
  const bundle = readFileSync(join(pkgDir, 'dist/browser/devtrail.min.js'));
  const app = express();
  app.use(devtrailExpress(backend, { ignorePaths: ['/devtrail.min.js', '/shop', '/done'] }));
  app.get('/devtrail.min.js', (_req, res) => void res.type('text/javascript').send(bundle));
  app.get('/shop', (_req, res) => void res.type('html').send(PAGE(receiver.url, receiver.project.key, thirdUrl)));
  app.get('/done', (_req, res) => void res.type('html').send('<p>done</p>'));
  app.post('/api/buy', (req, res) => {
    backendTraceparents.push(String(req.headers.traceparent));
    res.json({ order: 42 });
  });
  appServer = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => appServer.once('listening', () => r()));
  appUrl = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
  browser = await openBrowser(appUrl);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await backend?.close();
  await new Promise<void>((r) => (appServer ? appServer.close(() => r()) : r()));
  await new Promise<void>((r) => (thirdParty ? thirdParty.close(() => r()) : r()));
  await receiver?.close();
}, 60_000);

async function read(path: string): Promise<any> {
  const res = await fetch(`${receiver.url}/api/projects/${receiver.project.id}${path}`, { headers: { authorization: `Bearer ${receiver.operatorToken}` } });
  return res.status === 200 ? res.json() : {};
}
const from = () => new Date(Date.now() - 3600_000).toISOString();

describe.skipIf(!hasBrowser)(`browser tracing in Chromium, stored by the real receiver${hasBrowser ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  it('a page load and a click: a page-load span with web vitals, and a fetch the backend span joins in one trace', async () => {
    const { page } = browser;
    await page.goto(`${appUrl}/shop`);
    // Once the page load has settled (no request for a second), a click starts a trace of its own.
    await page.waitForFunction(() => document.readyState === 'complete' && !(window as any).client.activeSpan());
    await page.click('#buy');
    await expect.poll(() => page.title()).toBe('bought 42');
    await expect.poll(() => thirdPartyHeaders.length).toBe(1);
    // A route change of a single-page app, and a request it makes.
    await page.evaluate(async () => {
      history.pushState({}, '', '/checkout');
      await fetch('/api/buy', { method: 'POST' });
    });
    // The page goes away: the page-load span leaves with its final vitals.
    await page.goto(`${appUrl}/done`);

    expect(backendTraceparents).toHaveLength(2);
    const [, traceId, parentSpanId, flags] = backendTraceparents[0].split('-');
    expect(flags).toBe('01');
    // A third party is told nothing.
    expect(thirdPartyHeaders[0].traceparent).toBeUndefined();

    // The click's trace: ui.click (web) -> POST <host> (web, client) -> POST /api/buy (api, server).
    await expect.poll(async () => ((await read(`/traces/${traceId}`)).spans ?? []).length, { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(4);
    const spans: any[] = (await read(`/traces/${traceId}`)).spans;
    const click = spans.find((s) => s.operation.startsWith('ui.click'));
    const fetchSpan = spans.find((s) => s.span_id === parentSpanId);
    const server = spans.find((s) => s.service === 'api');
    expect(click).toMatchObject({ service: 'web', operation: 'ui.click button#buy "Buy now"', parent_span_id: '' });
    expect(fetchSpan).toMatchObject({ service: 'web', operation: `POST ${new URL(appUrl).host}`, parent_span_id: click.span_id });
    expect(fetchSpan.metadata).toMatchObject({ 'span.kind': 'client', 'http.response.status_code': 200, 'url.full': `${appUrl}/api/buy` });
    expect(server).toMatchObject({ operation: 'POST /api/buy', parent_span_id: fetchSpan.span_id, trace_id: traceId });
    // The third-party request is traced on the page's side, under the click, without telling the third party.
    expect(spans.find((s) => s.operation === `GET ${new URL(thirdUrl).host}`)).toMatchObject({ parent_span_id: click.span_id });

    // The page load: from the navigation's start, with its vitals and timing.
    await expect
      .poll(async () => ((await read(`/spans?operation=${encodeURIComponent('pageload /shop')}&from=${from()}`)).spans ?? []).length, { timeout: 60_000, interval: 500 })
      .toBe(1);
    const [pageLoad] = (await read(`/spans?operation=${encodeURIComponent('pageload /shop')}&from=${from()}`)).spans;
    expect(pageLoad).toMatchObject({ service: 'web', release: 'r1', parent_span_id: '' });
    expect(pageLoad.trace_id).not.toBe(traceId);
    const m = pageLoad.metadata;
    for (const key of ['vitals.ttfb_ms', 'vitals.fcp_ms', 'vitals.lcp_ms', 'vitals.inp_ms', 'navigation.dom_content_loaded_ms', 'navigation.load_ms'])
      expect(m[key], key).toEqual(expect.any(Number));
    expect(m['vitals.cls']).toEqual(expect.any(Number));
    expect(m['vitals.inp_ms']).toBeGreaterThanOrEqual(50);
    expect(m['vitals.lcp_ms']).toBeLessThanOrEqual(pageLoad.duration_ms + 1000);
    expect(pageLoad.duration_ms).toBeGreaterThanOrEqual(m['navigation.load_ms'] - 1);

    // The route change: a navigation span the second request's backend span joins.
    const [, routeTrace] = backendTraceparents[1].split('-');
    await expect.poll(async () => ((await read(`/traces/${routeTrace}`)).spans ?? []).length, { timeout: 60_000, interval: 500 }).toBe(3);
    const route: any[] = (await read(`/traces/${routeTrace}`)).spans;
    // Spans that start within the same millisecond come in any order: compared as a set, and
    // tied by their parents.
    expect(route.map((s) => `${s.service} ${s.operation}`).sort()).toEqual(['api POST /api/buy', 'web navigation /checkout', `web POST ${new URL(appUrl).host}`].sort());
    const nav = route.find((s) => s.operation === 'navigation /checkout');
    const routeFetch = route.find((s) => s.operation === `POST ${new URL(appUrl).host}`);
    expect(routeFetch.parent_span_id).toBe(nav.span_id);
    expect(route.find((s) => s.service === 'api').parent_span_id).toBe(routeFetch.span_id);
  }, 180_000);
});
