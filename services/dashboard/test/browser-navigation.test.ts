import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, horizontalOverflow, NO_BROWSER_REASON, openBrowser, type BrowserSession } from './support/browser.ts';
import { DEMO } from './support/demo-data.ts';
import { logIn, openDemo } from './support/demo-project.ts';

// Moving around the dashboard, in headless Chromium over the demo project: the time range
// and filters follow from tab to tab in the URL; a trace links to its errors and logs, an
// error to the logs around it; login comes back to the page asked for; Back restores a list
// and its scroll position; trace search and the waterfall; the LLM calls, breakdown and
// latency; error titles; the UI's own not-found page; the origins form's errors; times in
// UTC or the local zone; numbers in the browser's language; and a phone's width.

describe.skipIf(!browserAvailable())(`dashboard navigation in Chromium${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let demo: Awaited<ReturnType<typeof openDemo>>;
  let dt: Awaited<ReturnType<typeof openDemo>>['dt'];
  let b: BrowserSession;
  let project: Awaited<ReturnType<typeof openDemo>>['project'];
  const at = (path: string) => `/projects/${project.id}${path}`;
  const param = (name: string) => new URL(b.page.url()).searchParams.get(name);
  // The UI answers in well under a second; a loaded machine may take longer.
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

  beforeAll(async () => {
    demo = await openDemo();
    ({ dt, b, project } = demo);
  }, 300_000);
  afterAll(async () => demo?.close());

  it('carries the time range and the service filter from tab to tab, in the URL', async () => {
    const { page } = b;
    await page.goto(at('/logs'));
    await page.getByTestId('time-range').selectOption('6h');
    await poll(() => param('range')).toBe('6h');
    await page.getByRole('button', { name: 'Filter in Service checkout' }).click();
    await poll(() => param('service')).toBe('checkout');
    await page.getByRole('link', { name: 'Traces', exact: true }).click();
    await page.waitForURL('**/traces?**');
    expect([param('range'), param('service')]).toEqual(['6h', 'checkout']);
    expect(await page.getByTestId('time-range').inputValue()).toBe('6h');
    await poll(() => page.locator('select[name=service]').inputValue()).toBe('checkout'); // once its list of services is in
    await poll(() => page.getByTestId('trace-row').count()).toBe(1);
    expect(await page.getByTestId('traces-table').textContent()).toContain('POST /api/checkout');
    await page.getByRole('link', { name: 'Errors', exact: true }).click();
    await page.waitForURL('**/errors?**');
    expect([param('range'), param('service')]).toEqual(['6h', 'checkout']);
    await poll(() => page.getByTestId('error-group-row').count()).toBe(1);
    expect(await page.getByTestId('error-group-row').textContent()).toContain('TypeError');
    await page.getByRole('link', { name: 'LLM usage', exact: true }).click();
    await page.waitForURL('**/llm?**');
    await page.getByText('No LLM usage recorded in this time range.').waitFor();
    // And back to the logs, still filtered.
    await page.getByRole('link', { name: 'Logs', exact: true }).click();
    await page.waitForURL('**/logs?**');
    await page.getByTestId('filter-chips').getByText('service: checkout').waitFor();
  }, 60_000);

  it('links a trace to its errors and logs, an error to its trace and to the logs around it', async () => {
    const { page } = b;
    await page.goto(at(`/traces/${DEMO.traceId}`));
    await page.getByTestId('trace-errors').getByText('TimeoutError').waitFor();
    expect(await page.getByTestId('trace-error-count').textContent()).toBe('1');
    await page.getByTestId('trace-error-link').click();
    await page.waitForURL('**/errors/*');
    expect(await page.getByTestId('error-heading').textContent()).toBe('TimeoutError: operation timed out after 5000 ms');
    // The error's trace id: its logs, then the trace itself from a log.
    await page.getByTestId('error-trace-logs').click();
    await page.waitForURL('**/logs?**');
    expect(param('q')).toBe(`trace_id:${DEMO.traceId}`);
    await poll(() => page.getByTestId('log-row').count()).toBe(1);
    await page.getByTestId('log-row').click();
    await page.getByTestId('log-trace-link').click();
    await page.waitForURL(`**/traces/${DEMO.traceId}*`);
    expect(await page.getByTestId('trace-heading').textContent()).toBe('POST /api/checkout');
    // Everything logged in the five minutes around the trace, and never past now (the trace is recent).
    await page.getByTestId('trace-around-link').click();
    await page.waitForURL('**/logs?**');
    expect(Number(param('to')) - Number(param('from'))).toBeGreaterThan(5 * 60_000);
    expect(Number(param('to'))).toBeLessThanOrEqual(Date.now());
    await poll(() => page.getByTestId('log-row').count()).toBeGreaterThan(1);
    // From the error page: the logs of its service around it.
    for (let i = 0; i < 3; i++) await page.goBack();
    await page.waitForURL('**/errors/*');
    await page.getByTestId('error-logs-around').click();
    await page.waitForURL('**/logs?**');
    expect(param('service')).toBe('payments');
    await poll(async () => new Set(await page.locator('[data-testid=log-row] .service-cell').allTextContents())).toEqual(new Set(['payments']));
  }, 60_000);

  it('comes back to the page asked for after logging in', async () => {
    const { page } = b;
    await page.goto(at('/logs'));
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await page.goto(at('/traces?range=1h&operation=checkout'));
    await page.waitForURL('**/login?next=*');
    await logInHere(page);
    await page.waitForURL((url) => url.pathname.endsWith('/traces'));
    expect([param('range'), param('operation')]).toEqual(['1h', 'checkout']);
    await poll(() => page.getByTestId('trace-row').count()).toBe(1);
    // A next that leaves the site is not followed.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await page.goto('/login?next=//evil.example.com/x');
    await logInHere(page);
    await page.waitForURL('**/projects');
  }, 60_000);

  it('restores the list and its scroll position on Back', async () => {
    const { page } = b;
    await page.goto(at('/logs'));
    await poll(() => page.getByTestId('log-row').count()).toBe(100);
    await page.getByTestId('logs-end').scrollIntoViewIfNeeded();
    await poll(() => page.getByTestId('log-row').count()).toBe(180);
    const row = page.getByTestId('log-row').nth(150);
    await row.scrollIntoViewIfNeeded();
    await row.click();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(1000);
    const requestLink = page.locator('.log-detail a').first();
    await requestLink.click();
    await page.waitForURL('**/logs?**q=request_id*');
    await poll(() => page.getByTestId('log-row').count()).toBe(1);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    // The same 180 rows at once (no reload from the first page) and the same place.
    await poll(() => page.getByTestId('log-row').count()).toBe(180);
    await poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled - 40);
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(scrolled + 40);
  }, 60_000);

  it('searches traces by operation, service, duration and status; draws the waterfall in service colours with a time axis and readable labels', async () => {
    const { page } = b;
    const operations = async (query: string) => {
      await page.goto(at(`/traces?${query}`));
      await page.getByTestId('trace-filters').waitFor();
      await poll(() => page.locator('[data-testid=traces-table], .empty').count()).toBeGreaterThan(0);
      return page.locator('[data-testid=trace-row] td:nth-child(2) a').allTextContents();
    };
    expect(await operations('operation=CHECK')).toEqual(['POST /api/checkout']);
    expect(await operations('service=payments')).toEqual(['POST /api/checkout']);
    expect(await operations('min_duration_ms=1000')).toEqual(['GET /api/search']);
    expect(await operations('max_duration_ms=20')).toEqual(['GET /api/cart']);
    expect(await operations('status=error')).toEqual(['POST /api/checkout']);
    // The form writes the same URL.
    await page.goto(at('/traces'));
    await page.getByLabel('Operation contains').fill('search');
    await page.getByLabel('Status').selectOption('ok');
    await page.getByRole('button', { name: 'Search' }).click();
    await poll(() => param('operation')).toBe('search');
    expect(param('status')).toBe('ok');
    await poll(() => page.getByTestId('trace-row').count()).toBe(1);

    await page.goto(at(`/traces/${DEMO.traceId}`));
    await poll(() => page.getByTestId('span-row').count()).toBe(4);
    const bars = await page.locator('.wf-bar').evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
    expect(new Set(bars).size).toBe(4); // four services, four colours
    expect(await page.getByTestId('wf-legend').locator('.service-tag').allTextContents()).toEqual(['checkout', 'cart', 'payments', 'email']);
    const ticks = await page.getByTestId('wf-axis').locator('.wf-tick').allTextContents();
    expect(ticks[0]).toBe('0 ms');
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    // Every duration label lies inside its track (nothing cut off) and reads against what is behind it.
    const labels = await page.getByTestId('wf-label').evaluateAll((els) =>
      els.map((e) => {
        const parse = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
        const luminance = ([r, g, b]: number[]) => {
          const lin = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
          return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
        };
        let bg: number[] = [];
        for (let n: Element | null = e; n && bg.length === 0; n = n.parentElement) {
          const c = parse(getComputedStyle(n).backgroundColor);
          if (c.length === 3 || (c.length === 4 && c[3] > 0)) bg = c.slice(0, 3);
        }
        const [l1, l2] = [luminance(parse(getComputedStyle(e).color)), luminance(bg)].sort((a, b) => b - a);
        const r = e.getBoundingClientRect();
        const track = e.closest('.wf-track')!.getBoundingClientRect();
        return { text: e.textContent, inside: r.left >= track.left - 1 && r.right <= track.right + 1, contrast: (l1 + 0.05) / (l2 + 0.05) };
      }),
    );
    expect(labels.map((l) => l.text)).toEqual(['420 ms', '35 ms', '300 ms', '6 ms']);
    for (const l of labels) {
      expect(l.inside, `${l.text} inside its track`).toBe(true);
      expect(l.contrast, `${l.text} contrast`).toBeGreaterThan(4.5);
    }
    // A name too long for its column is cut with an ellipsis and shown whole on hover.
    const long = page.getByTestId('span-row').filter({ hasText: 'payment.charge' });
    expect(await long.getAttribute('title')).toContain('payment.charge (stripe) with a long operation name that does not fit');
  }, 60_000);

  it('lists LLM calls with their metadata and trace, breaks usage down by a metadata key, charts latency', async () => {
    const { page } = b;
    await page.goto(at('/llm'));
    await poll(() => page.getByTestId('llm-call-row').count()).toBe(20);
    await page.getByTestId('llm-latency-chart').locator('canvas').first().waitFor();
    await poll(() => page.getByTestId('llm-metadata-key').inputValue()).toBe('feature'); // once the keys are in
    await poll(() => page.getByTestId('llm-metadata-row').count()).toBe(3); // read after the keys
    const breakdown = await page.getByTestId('llm-metadata-row').evaluateAll((rows) => rows.map((r) => [r.children[0].textContent, r.children[1].textContent]));
    expect(breakdown).toEqual([
      ['search', '12'],
      ['chat', '4'],
      ['summary', '4'],
    ]);
    await page.getByTestId('llm-metadata-key').selectOption('user_id');
    await poll(async () => (await page.getByTestId('llm-metadata-row').first().textContent())?.startsWith(DEMO.user)).toBe(true);
    await page.getByTestId('llm-metadata-row').first().getByRole('button').click();
    await poll(() => param('metadata')).toBe(`user_id:${DEMO.user}`);
    await poll(() => page.getByTestId('llm-call-row').count()).toBe(5);
    // A call's metadata, and its trace.
    await page.goto(at('/llm'));
    await page.getByTestId('llm-trace-link').waitFor();
    await page.getByTestId('llm-call-row').last().click();
    await page.locator('.log-detail pre').getByText('"feature": "search"').waitFor();
    await page.getByTestId('llm-trace-link').click();
    await page.waitForURL(`**/traces/${DEMO.traceId}*`);
  }, 60_000);

  it("titles errors without their type twice; an unknown page is the UI's not-found, an unknown API path JSON", async () => {
    const { page } = b;
    await page.goto(at('/errors'));
    await page.getByTestId('error-group-row').first().waitFor();
    const titles = await page.locator('.error-title').allTextContents();
    expect(titles.map((t) => t.trim())).toContain('TimeoutError: operation timed out after 5000 ms');
    for (const t of titles) expect(t).not.toMatch(/(\w+Error): \1/);
    const res = await page.goto('/this/is/no/page');
    expect(res?.status()).toBe(404);
    await page.getByTestId('not-found').getByText('Page not found').waitFor();
    const api = await page.evaluate(async () => {
      const r = await fetch('/api/nothing', { headers: { accept: 'text/html' } });
      return { status: r.status, type: r.headers.get('content-type'), body: await r.json() };
    });
    expect(api).toEqual({ status: 404, type: expect.stringContaining('application/json'), body: { error: 'Not found: GET /api/nothing' } });
  }, 60_000);

  it('names each origin the form refused, by line, and saves nothing', async () => {
    const { page } = b;
    await page.goto(at('/settings?tab=origins'));
    await page.getByTestId('origins-input').fill('shop.example.com\nnot a domain!!\nhttps://admin.example.org\nftp://files.example.com');
    await page.getByTestId('save-origins').click();
    const box = page.getByTestId('origin-errors');
    await box.waitFor();
    const items = await box.locator('li').allTextContents();
    expect(items).toEqual([
      'Line 2 (“not a domain!!”) must be a domain (example.com), a wildcard (*.example.com) or an http(s) origin (https://app.example.com).',
      'Line 4 (“ftp://files.example.com”) must be a domain (example.com), a wildcard (*.example.com) or an http(s) origin (https://app.example.com).',
    ]);
    expect(await box.textContent()).not.toContain('origins.');
    expect(await page.getByText('Currently: all origins').count()).toBe(1);
  }, 60_000);

  it('shows times in UTC or the local zone, named, and numbers in the browser language', async () => {
    const de = await openBrowser(dt.url, { locale: 'de-DE', timezoneId: 'Asia/Kolkata' });
    try {
      const { page } = de;
      await logIn(page, at('/llm'));
      const tokens = await page.locator('.stat').filter({ hasText: 'Tokens' }).locator('.stat-value').textContent();
      expect(tokens).toBe('29.500');
      expect(await page.getByTestId('llm-total-cost').textContent()).toMatch(/^0,23\s\$$/);
      await page.goto(at('/logs'));
      const header = page.getByTestId('logs-table').locator('th').first();
      await poll(() => header.textContent()).toBe('Time (UTC+05:30)');
      const local = (await page.locator('.time-cell').first().textContent())!.slice(0, 23);
      await page.getByTestId('zone-switch').getByRole('button', { name: 'UTC' }).click();
      await poll(() => header.textContent()).toBe('Time (UTC)');
      const utc = (await page.locator('.time-cell').first().textContent())!.slice(0, 23);
      expect(Date.parse(`${local.replace(' ', 'T')}Z`) - Date.parse(`${utc.replace(' ', 'T')}Z`)).toBe(5.5 * 3600_000);
      // Remembered in this browser.
      await page.reload();
      await poll(() => header.textContent()).toBe('Time (UTC)');
      expect(de.pageErrors).toEqual([]);
    } finally {
      await de.close();
    }
  }, 60_000);

  it('fits a phone: no page is wider than 390 px, and Log out stays on screen', async () => {
    const phone = await openBrowser(dt.url, { viewport: { width: 390, height: 844 } });
    try {
      const { page } = phone;
      await logIn(page, at('/logs'));
      const fp = (await (await page.request.get(`${dt.url}/api/projects/${project.id}/error-groups`)).json()).groups[0].fingerprint;
      const pages = [
        '/projects',
        '/users',
        at('/logs'),
        at('/errors'),
        at(`/errors/${fp}`),
        at('/traces'),
        at(`/traces/${DEMO.traceId}`),
        at('/releases'),
        at('/llm'),
        at('/ingestion'),
      ];
      pages.push(...['keys', 'origins', 'rate-limit', 'drain', 'members'].map((t) => at(`/settings?tab=${t}`)), '/no/such/page');
      for (const path of pages) {
        await page.goto(path);
        await page.locator('main.content > *').first().waitFor();
        await page.waitForLoadState('networkidle'); // measured as loaded: a table that arrives later may widen the page
        await page.waitForTimeout(300);
        expect(await horizontalOverflow(page), `${path} wider than the phone`).toBe(0);
        const logout = await page.getByRole('button', { name: 'Log out' }).boundingBox();
        expect(logout!.x + logout!.width, `${path}: Log out on screen`).toBeLessThanOrEqual(390);
      }
      // The log list's lines open on a phone too.
      await page.goto(at('/logs'));
      await page.getByTestId('log-row').first().click();
      await page.getByTestId('show-surrounding').waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      expect(phone.pageErrors).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 120_000);

  it('raised no script error and no CSP violation', () => {
    expect(b.pageErrors).toEqual([]);
  });

  async function logInHere(page: BrowserSession['page']) {
    await page.getByLabel('Username').fill('owner');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Log in' }).click();
  }
});
