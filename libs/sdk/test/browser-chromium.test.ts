// The script-tag build in a real browser (headless Chromium, docs/sdk.md#browser): what a page
// records without code changes (breadcrumbs of clicks, console, fetch, XHR and navigation; the
// page URL and user agent on errors; uncaught errors), the beforeSend hooks and the sample rates.
// One local server serves the page, the bundle and a stand-in for the receiver's batch route that
// records what arrives (NOT the real receiver: integration-real-pipeline.test.ts is that).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, NO_BROWSER_REASON, openBrowser, type BrowserSession } from '../../../services/dashboard/test/support/browser.ts';
import { ensureBuilt, pkgDir } from './helpers/built-package.js';
import { TEST_KEY } from './helpers/capture-server.js';
import { unbatch } from './helpers/unbatch.js';

const hasBrowser = browserAvailable();
let server: Server;
let url: string;
let browser: BrowserSession;
const batches: any[] = [];

const PAGE = `<!doctype html><html><head><title>shop</title><script src="/devtrail.min.js"></script></head>
<body><button id="buy" class="primary big">Buy now</button><script>
  window.client = devtrail.createClient({
    apiKey: '${TEST_KEY}', baseUrl: location.origin, service: 'web', flushIntervalMs: 50,
    beforeSend(report) {
      if (report.error_message.includes('drop me')) return null;
      report.context.checked = true;
      return report;
    },
    beforeSendSpan(span) { return span.operation === 'secret' ? null : span; },
  });
  client.setUser({ id: 'u-42', email: 'ada@example.com' });
</script></body></html>`;

beforeAll(async () => {
  if (!hasBrowser) return;
  await ensureBuilt();
  const bundle = readFileSync(join(pkgDir, 'dist/browser/devtrail.min.js'));
  server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/ingest/batch') {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        batches.push(JSON.parse(raw));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, count: 1, rejected: 0 }));
      });
      return;
    }
    if (req.url === '/devtrail.min.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    if (req.url?.startsWith('/api/data')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"stock":3}');
    if (req.url === '/api/missing') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await openBrowser(url);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
});

const errors = () => unbatch(batches, '/ingest/errors');
const spans = () => unbatch(batches, '/ingest/traces');

describe.skipIf(!hasBrowser)(`the browser SDK in Chromium${hasBrowser ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  it('records breadcrumbs of clicks, console, fetch, XHR and navigation, and puts the page URL, user agent and user on an uncaught error', async () => {
    const { page } = browser;
    await page.goto(`${url}/shop?campaign=1`);
    await page.click('#buy');
    await page.evaluate(async () => {
      console.warn('low stock', { sku: 7 });
      await fetch('/api/data?token=secret');
      await new Promise((r) => {
        const x = new XMLHttpRequest();
        x.open('GET', '/api/missing');
        x.onloadend = r;
        x.send();
      });
      history.pushState({}, '', '/checkout');
      setTimeout(() => {
        throw new TypeError('render failed');
      });
    });
    await expect.poll(() => errors().length, { timeout: 10_000 }).toBe(1);
    const [report] = errors();
    expect(report).toMatchObject({ error_message: 'render failed', severity: 'high', user_id: 'u-42' });
    expect(report.context).toMatchObject({ url: `${url}/checkout`, source: 'window.onerror', checked: true, user: { email: 'ada@example.com' } });
    expect(report.context.user_agent).toMatch(/Chrome\//);
    expect(report.breadcrumbs.map((b: any) => [b.type, b.message])).toEqual([
      ['ui.click', 'button#buy.primary.big "Buy now"'],
      ['console', '[warn] low stock {"sku":7}'],
      ['http', 'GET /api/data 200'],
      ['http', 'GET /api/missing 404'],
      ['navigation', '/shop → /checkout'],
    ]);
  });

  it('beforeSend and beforeSendSpan drop or change records; the SDK counts what they left out', async () => {
    const { page } = browser;
    const before = errors().length;
    const stats = await page.evaluate(async () => {
      const c = (window as any).client;
      c.captureError(new Error('drop me'));
      c.captureError(new Error('keep me'));
      c.startSpan('secret', () => 1);
      c.startSpan('public', () => 1);
      await c.flush();
      return c.stats();
    });
    expect(
      errors()
        .slice(before)
        .map((r) => r.error_message),
    ).toEqual(['keep me']);
    expect(spans().map((s) => s.operation)).toContain('public');
    expect(spans().map((s) => s.operation)).not.toContain('secret');
    expect(stats).toMatchObject({ filteredOut: 2, dropped: 0 });
  });

  it('sampleRate 0 sends no error report and tracesSampleRate 0 no span; logs still go', async () => {
    const { page } = browser;
    const sent = batches.length;
    const stats = await page.evaluate(async (key) => {
      const c = (window as any).devtrail.createClient({
        apiKey: key,
        baseUrl: location.origin,
        service: 'sampled',
        sampleRate: 0,
        tracesSampleRate: 0,
        captureUncaught: false,
        breadcrumbs: false,
      });
      c.captureError(new Error('sampled out'));
      c.startSpan('sampled-out span', () => c.logger.info('a log inside an unsampled span'));
      await c.close();
      return c.stats();
    }, TEST_KEY);
    const mine = batches.slice(sent).filter((b) => b.service === 'sampled');
    expect(unbatch(mine, '/ingest/errors')).toEqual([]);
    expect(unbatch(mine, '/ingest/traces')).toEqual([]);
    const [log] = unbatch(mine, '/ingest/logs').flatMap((b) => b.logs);
    expect(log).toMatchObject({ message: 'a log inside an unsampled span', trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(stats).toMatchObject({ sampledOut: 1, sent: 1 });
  });
});
