import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, horizontalOverflow, NO_BROWSER_REASON, openBrowser, screenshot, type BrowserSession } from './support/browser.ts';
import { createProjectInUi, fillSetupForm, ingest, startDashboard } from './support/dashboard.ts';

// The metrics explorer (docs/dashboard.md, "Metrics") in headless Chromium against the embedded
// process: OTLP metrics sent to /v1/metrics charted per service, an exemplar opening its trace,
// phone and dark mode; and the explorer parts every page shares: menus inside a 390 px screen,
// one colour per service, ISO 24-hour custom ranges, a range opened from an event that stops at
// now. A default range that widens to fit sparse data: browser-default-range.test.ts.

const SLOW = { timeout: 30_000 };
const TRACE = '0af7651916cd43dd8448eb211c80319c';
const ns = (ms: number) => `${BigInt(ms) * 1_000_000n}`;

/** A cumulative counter of two services, three exports each, and a gauge, as an SDK's OTLP/JSON exporter sends them. */
function otlpMetrics(now: number) {
  const start = now - 20 * 60_000;
  const resource = (service: string) => ({ attributes: [{ key: 'service.name', value: { stringValue: service } }] });
  const counter = (values: number[]) => ({
    name: 'http.server.requests',
    unit: '{request}',
    description: 'requests served',
    sum: {
      aggregationTemporality: 2,
      isMonotonic: true,
      dataPoints: values.map((v, i) => ({
        startTimeUnixNano: ns(start),
        timeUnixNano: ns(now - (10 - i * 4) * 60_000),
        asInt: String(v),
        attributes: [{ key: 'http.route', value: { stringValue: '/pay' } }],
        exemplars: i === 2 ? [{ timeUnixNano: ns(now - 2 * 60_000), asInt: '1', traceId: TRACE, spanId: 'b7ad6b7169203331' }] : [],
      })),
    },
  });
  const gauge = { name: 'queue.depth', gauge: { dataPoints: [{ timeUnixNano: ns(now - 60_000), asDouble: 4 }] } };
  return {
    resourceMetrics: [
      { resource: resource('payments'), scopeMetrics: [{ metrics: [counter([10, 40, 70]), gauge] }] },
      { resource: resource('checkout'), scopeMetrics: [{ metrics: [counter([5, 6, 7])] }] },
    ],
  };
}

describe.skipIf(!browserAvailable())(`the metrics explorer${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  let project: { id: string; key: string };
  const at = (id: string, path: string) => `/projects/${id}${path}`;

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url, { timezoneId: 'UTC' });
    await b.page.goto('/');
    await b.page.waitForURL('**/setup');
    await fillSetupForm(b.page, dt.setupCode!.code, 'owner', 'correct horse battery');
    await b.page.waitForURL('**/projects');
    project = await createProjectInUi(b.page, 'metrics-shop');
    const now = Date.now();
    const post = async (key: string, path: string, body: unknown) => {
      const r = await fetch(`${dt.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(r.status, await r.text()).toBe(200);
    };
    await post(project.key, '/v1/metrics', otlpMetrics(now));
    // The exemplar's trace, so its link opens a trace.
    const span = await ingest(dt.url, project.key, 'traces', {
      service: 'payments',
      trace_id: TRACE,
      span_id: 'b7ad6b7169203331',
      operation: 'POST /pay',
      start_time: new Date(now - 2 * 60_000).toISOString(),
      duration_ms: 12,
    });
    expect(span.status).toBe(200);
  }, 90_000);
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  it('charts a counter per service, its increase exact, and an exemplar opens its trace', async () => {
    const { page } = b;
    // The page reads once: opened again until the consumer has written the points.
    const names = page.getByTestId('metric-name').locator('option');
    await expect
      .poll(async () => {
        await page.goto(at(project.id, '/metrics?range=1h'));
        await names
          .nth(1)
          .waitFor({ timeout: 3000 })
          .catch(() => {});
        return (await names.allTextContents()).sort();
      }, SLOW)
      .toEqual(['http.server.requests', 'queue.depth']);
    await page.getByTestId('metric-name').selectOption('http.server.requests');
    await page.getByTestId('metric-aggregation').selectOption('increase');
    await page.getByTestId('metric-group').selectOption('service');
    // Each line's latest step: what its last export added (70 - 40, 7 - 6).
    await expect.poll(async () => (await page.getByTestId('metric-line').allTextContents()).sort(), SLOW).toEqual(['checkout1', 'payments30']);
    await page.getByTestId('metric-chart').locator('canvas').first().waitFor();
    expect(await page.getByTestId('metric-meta').textContent()).toContain('sum, {request}, cumulative, monotonic — requests served');
    // The URL holds the view: a reload shows the same chart.
    const url = new URL(page.url());
    expect(Object.fromEntries(['metric', 'agg', 'by'].map((k) => [k, url.searchParams.get(k)]))).toEqual({
      metric: 'http.server.requests',
      agg: 'increase',
      by: 'service',
    });
    // The filter in the search syntax.
    await page.getByTestId('metric-filter').fill('service:payments');
    await page.getByTestId('metric-filter').press('Enter');
    await expect.poll(() => page.getByTestId('metric-line').count(), SLOW).toBe(1);
    await screenshot(page, 'metrics');
    await page.getByTestId('exemplar-trace').first().click();
    await page.waitForURL(`**/traces/${TRACE}**`);
    expect(b.pageErrors).toEqual([]);
  }, 60_000);

  it('on a phone, dark: no sideways scroll; the logs menus open inside the screen', async () => {
    const phone = await openBrowser(dt.url, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    try {
      await phone.context.addCookies(await b.context.cookies());
      await phone.page.goto(at(project.id, '/metrics?range=1h&metric=http.server.requests&agg=rate&by=service'));
      await phone.page.getByTestId('metric-chart').locator('canvas').first().waitFor(SLOW);
      expect(await horizontalOverflow(phone.page)).toBeLessThanOrEqual(0);
      await screenshot(phone.page, 'metrics-phone-dark');
      await phone.page.goto(at(project.id, '/logs'));
      for (const menu of ['export-menu', 'columns-menu']) {
        const m = phone.page.getByTestId(menu);
        await m.locator('summary').click();
        const box = (await m.locator('.menu-body').boundingBox())!;
        expect(box.x, menu).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, menu).toBeLessThanOrEqual(390);
        await m.locator('summary').click();
      }
    } finally {
      await phone.close();
    }
  }, 60_000);

  it('shared parts: one colour per service, ISO 24-hour custom ranges, a range from an event stops at now', async () => {
    const { page } = b;
    await page.goto(at(project.id, '/metrics?range=1h'));
    // The page's own modules, as the pages import them (a string: vitest would rewrite an import()).
    // payments, drawn on this page already, keeps its colour in any other view, after a reload too;
    // services new to a view take colours apart from the others of it.
    const colours = () =>
      page.evaluate<string[]>(`import('/ui/assets/js/lib/service-colors.js').then((m) => {
        const first = m.colorsOf(['payments'])('payments');
        const view = m.colorsOf(['zz-1', 'zz-2', 'zz-3', 'payments'], true);
        return [first, view('payments'), m.serviceColor('payments'), new Set(['zz-1', 'zz-2', 'zz-3', 'payments'].map(view)).size];
      })`);
    const before = await colours();
    expect(before.slice(0, 3)).toEqual([before[0], before[0], before[0]]);
    expect(before[3]).toBe(4);
    await page.reload();
    expect((await colours())[0]).toBe(before[0]);
    const around = await page.evaluate<{ now: number; after: number; p: { from: number; to: number } }>(`import('/ui/assets/js/lib/view-state.js').then((v) => {
      const now = Date.now();
      const p = v.aroundParams(now - 60000, now - 60000);
      return { now, after: Date.now(), p };
    })`);
    expect(around.p.to).toBeLessThanOrEqual(around.after);
    expect(around.p.from).toBe(around.now - 60_000 - 5 * 60_000);
    await page.getByTestId('time-range').selectOption('custom');
    const from = page.getByTestId('custom-range').locator('input[name="from"]');
    expect(await from.inputValue()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    await from.fill('2026-11-20 14:30');
    await page.getByTestId('custom-range').locator('input[name="to"]').fill('2026-11-20 16:45');
    await page.getByTestId('custom-range').getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('from'), SLOW).toBe(String(Date.UTC(2026, 10, 20, 14, 30)));
    expect(new URL(page.url()).searchParams.get('to')).toBe(String(Date.UTC(2026, 10, 20, 16, 45)));
    expect(await page.getByTestId('range-label').textContent()).toContain('2026-11-20 14:30 – 2026-11-20 16:45');
  }, 60_000);
});
