import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable, horizontalOverflow, NO_BROWSER_REASON, openBrowser, screenshot, type BrowserSession } from './support/browser.ts';
import { ingest, startDashboard } from './support/dashboard.ts';
import { DEMO } from './support/demo-data.ts';
import { demoProject } from './support/demo-project.ts';
import { BIG, sendBigTrace } from './support/big-trace.ts';

// Traces and the explorer's filters in headless Chromium over the demo project and a
// 40-span trace of 12 services (support/big-trace.ts), at 1440x900 and 390x844, light and
// dark: trace search (syntax, sort, the service picker in any case), the service map, the
// trace page (details beside the waterfall or under the row on a phone, folding, search in
// the trace, the critical path, 12 distinct colours, events and links), the filter chips on
// every tab they apply to (and not carried to the others), and the Ingestion page's counts
// against what the consumers wrote. Saves the screenshots of docs/dashboard.md.

const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A poll's bound on a loaded machine (the default second is too short for a page's reaction there). */
const SLOW = { timeout: 15_000 };

describe.skipIf(!browserAvailable())(`traces and filters in the browser${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  let page: Page;
  let project: Awaited<ReturnType<typeof demoProject>>;
  const at = (path: string) => `/projects/${project.id}${path}`;
  /** Light at 1440x900, then dark at 390x844: each look saved as `name` (and -phone-dark). */
  async function looks(name: string, check: (phone: boolean) => Promise<void>) {
    for (const [viewport, scheme] of [
      [WIDE, 'light'],
      [PHONE, 'dark'],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await check(viewport === PHONE);
      expect(await horizontalOverflow(page), `${name} at ${viewport.width} px fits`).toBe(0);
      await screenshot(page, viewport === PHONE ? `${name}-phone-dark` : name, { fullPage: false });
    }
    await page.setViewportSize(WIDE);
    await page.emulateMedia({ colorScheme: 'light' });
  }

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url, { viewport: WIDE });
    page = b.page;
    project = await demoProject(page, dt.url, dt.setupCode!.code);
    await sendBigTrace(dt.url, project.key);
    // All 40 spans stored (the consumers write in batches).
    const all = async () => {
      await page.goto(at(`/traces/${BIG.traceId}`));
      return page
        .getByTestId('span-row')
        .nth(BIG.spans - 1)
        .waitFor({ timeout: 10_000 })
        .then(
          () => true,
          () => false,
        );
    };
    for (const deadline = Date.now() + 90_000; !(await all()); ) if (Date.now() > deadline) throw new Error('the 40-span trace was not stored within 90 s');
  }, 300_000);
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  it('searches traces by span attributes and duration, slowest first, with a service picker in any case', async () => {
    await looks('traces-search', async () => {
      await page.goto(at(`/traces?q=${encodeURIComponent('http.route:/checkout/confirm duration:>1s')}`));
      await page.getByTestId('trace-row').first().waitFor();
      expect(await page.getByTestId('trace-row').count()).toBe(1);
      // Sorting by duration: the slowest root first.
      await page.goto(at('/traces?sort=duration'));
      await page.getByTestId('trace-row').first().waitFor();
      const durations = await page.getByTestId('trace-row').locator('td.num:nth-of-type(5)').allTextContents();
      expect(durations[0]).toMatch(/1\.84 ?s/);
      // The picker lists the services seen; a service typed in another case selects the same one.
      await page.goto(at('/traces?service=PAYMENTS'));
      await page.getByTestId('trace-row').first().waitFor();
      // Selected once the picker's list of services is in (its own read, which may end after the traces').
      await expect.poll(() => page.getByTestId('service-picker').inputValue()).toBe('payments');
      const options = await page.getByTestId('service-picker').locator('option').allTextContents();
      // Every service with spans (the demo's auth has none).
      expect(options.slice(1).sort()).toEqual([...new Set([...BIG.services, ...DEMO.services.filter((s) => s !== 'auth')])].sort());
      expect(await page.getByTestId('trace-row').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('POST /api/checkout')]));
      await page.getByTestId('service-picker').selectOption('search');
      await page.waitForURL(/service=search/);
      await page.getByText('GET /api/search').first().waitFor();
      // A search the syntax cannot read says what and where.
      await page.getByTestId('trace-search').fill('duration:>fast');
      await page.getByTestId('trace-search').press('Enter');
      await page.getByText(/duration needs a number/).waitFor();
      await page.goto(at(`/traces?q=${encodeURIComponent('tenant:acme')}&sort=duration`));
      await page.getByTestId('trace-row').first().waitFor();
    });
  }, 90_000);

  it('draws the service map: which service calls which, with calls, errors and p95', async () => {
    await looks('service-map', async () => {
      await page.goto(at('/traces?view=map&range=1h'));
      await page.getByTestId('service-edges').waitFor();
      const rows = await page.getByTestId('edge-row').allTextContents();
      expect(rows).toEqual(expect.arrayContaining([expect.stringMatching(/checkout.*→.*payments/)]));
      expect(await page.getByTestId('map-node').count()).toBeGreaterThanOrEqual(12);
      const failed = page
        .getByTestId('edge-row')
        .filter({ hasText: /checkout.*payments/ })
        .locator('td')
        .nth(3);
      expect(await failed.textContent()).toMatch(/1 \(100 %\)/);
    });
  }, 60_000);

  it('shows a span beside the waterfall (under its row on a phone), folds, finds, marks the critical path and colours 12 services apart', async () => {
    await looks('trace-big', async (phone) => {
      await page.goto(at(`/traces/${BIG.traceId}`));
      await page
        .getByTestId('span-row')
        .nth(BIG.spans - 1)
        .waitFor();
      // Selecting the last span: its details are on screen, beside the waterfall or right under the row.
      const last = page.locator(`[data-span="${BIG.lastSpan}"]`);
      await last.getByTestId('span-select').click();
      const detail = page.getByTestId('span-detail');
      await detail.getByText(BIG.lastSpan).first().waitFor();
      const row = (await last.boundingBox())!;
      const box = (await detail.boundingBox())!;
      if (phone) {
        expect(Math.abs(box.y - (row.y + row.height))).toBeLessThan(20);
      } else {
        expect(box.x).toBeGreaterThan(row.x + row.width * 0.5);
        expect(box.y).toBeLessThan(WIDE.height);
      }
      // Names are not cut to nothing on a phone: the deepest operation shows at least 10 characters' width.
      const name = (await last.locator('.wf-op').boundingBox())!;
      expect(name.width).toBeGreaterThan(phone ? 60 : 100);
      // Twelve services, twelve colours.
      const colours = await page
        .getByTestId('wf-legend')
        .locator('.dot')
        .evaluateAll((ds) => ds.map((d) => getComputedStyle(d).backgroundColor));
      expect(colours).toHaveLength(12);
      expect(new Set(colours).size).toBe(12);
      // The critical path runs from the root down; a short early span is not on it.
      const critical = await page.locator('.wf-critical').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-span')));
      expect(critical[0]).toBe('big-00');
      expect(critical.length).toBeGreaterThan(3);
      expect(critical.length).toBeLessThan(BIG.spans);
      // Folding a span hides its subtree and says how many; Expand all brings them back.
      const rowsBefore = await page.getByTestId('span-row').count();
      await page.locator('[data-span="big-02"]').getByTestId('span-fold').click();
      const hidden = Number((await page.locator('[data-span="big-02"]').getByTestId('span-hidden').textContent())!.replace(/\D/g, ''));
      expect(hidden).toBeGreaterThan(0);
      expect(await page.getByTestId('span-row').count()).toBe(rowsBefore - hidden);
      await page.getByTestId('expand-all').click();
      expect(await page.getByTestId('span-row').count()).toBe(rowsBefore);
      // Search in the trace: matches marked, the rest dimmed, Enter selects the next match.
      await page.getByTestId('trace-find').fill('postgresql');
      await expect.poll(() => page.getByTestId('trace-find-count').textContent()).toBe('8 of 40 spans');
      expect(await page.locator('.wf-match').count()).toBe(8);
      await page.getByTestId('trace-find').press('Enter');
      await page.getByTestId('span-detail').getByText('SELECT orders_4').first().waitFor();
      await page.getByTestId('trace-find').press('Escape');
      expect(await page.locator('.wf-match').count()).toBe(0);
      // j/k move through the spans.
      await page.locator('body').press('j');
      await page.getByTestId('span-detail').getByText('big-05').first().waitFor();
      await page.locator('body').press('k');
      await page.getByTestId('span-detail').getByText('big-04').first().waitFor();
      // Events and links of a span.
      await page.locator(`[data-span="${BIG.eventSpan}"]`).getByTestId('span-select').click();
      await page.getByTestId('span-events').getByText('cache.miss').waitFor();
      await page.getByTestId('span-events').getByText('retry').waitFor();
      await page
        .getByTestId('span-links')
        .getByRole('link', { name: new RegExp(BIG.linkedTraceId) })
        .waitFor();
      await page.getByTestId('span-detail').getByText('k8s.pod.name').waitFor();
    });
  }, 120_000);

  it('shows each active filter as a chip on every tab it applies to, clears it there, and does not carry it elsewhere', async () => {
    for (const viewport of [WIDE, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(at('/logs?service=checkout'));
      const chip = page.getByTestId('filter-chip').filter({ hasText: 'service: checkout' });
      await chip.waitFor();
      for (const tab of ['Errors', 'Traces', 'LLM usage']) {
        await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: tab, exact: true }).click();
        await page.waitForURL(/service=checkout/);
        await chip.waitFor();
      }
      // Ingestion does not apply it: not carried, so no chip.
      await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Ingestion', exact: true }).click();
      await page.getByTestId('ingested-log').waitFor();
      expect(page.url()).not.toMatch(/service=/);
      expect(await page.getByTestId('filter-chip').count()).toBe(0);
      // Cleared on each tab with ×.
      for (const path of ['/logs', '/errors', '/traces', '/llm']) {
        await page.goto(at(`${path}?service=checkout`));
        await chip.getByRole('button', { name: 'Remove filter service' }).click();
        await page.waitForURL((u) => !u.searchParams.has('service'));
        expect(await page.getByTestId('filter-chip').count()).toBe(0);
      }
    }
    await page.setViewportSize(WIDE);
    await page.goto(at('/errors?service=checkout&environment=production'));
    await page.getByTestId('filter-chip').filter({ hasText: 'env: production' }).waitFor();
    await screenshot(page, 'errors-filter-chips', { fullPage: false });
  }, 240_000); // six tabs at two sizes: 40 s on a quiet machine, past 120 s under a loaded CI

  it('moves through log rows by keyboard, copies, exports CSV and NDJSON, and filters from a metadata value', async () => {
    await looks('logs-keyboard', async (phone) => {
      await page.goto(at(`/logs?service=checkout`));
      await page.getByTestId('log-row').nth(2).waitFor();
      await page.waitForLoadState('networkidle'); // the page's reads done: no re-render takes a key press
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      // j j j k: each key moves the active row (first, second, third, back to the second); Enter opens it; Esc closes it.
      const rows = page.getByTestId('log-row');
      for (const [key, row] of [
        ['j', 0],
        ['j', 1],
        ['j', 2],
        ['k', 1],
      ] as const) {
        await page.keyboard.press(key);
        await expect.poll(() => rows.nth(row).evaluate((e) => e.classList.contains('kbd-active')), SLOW).toBe(true);
      }
      const second = rows.nth(1);
      await expect.poll(() => second.evaluate((e) => e.classList.contains('kbd-active') && document.activeElement === e), SLOW).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => second.getAttribute('aria-expanded'), SLOW).toBe('true');
      await page.getByTestId('copy-id').click();
      const id = await second.getAttribute('data-event');
      if (!phone) expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);
      await page.keyboard.press('Escape');
      await expect.poll(() => second.getAttribute('aria-expanded'), SLOW).toBe('false');
      // Export: the links carry the page's filters and answer the file.
      for (const format of ['csv', 'ndjson']) {
        const href = (await page.getByTestId(`export-${format}`).getAttribute('href'))!;
        expect(href).toContain('service=checkout');
        const body = await page.evaluate(async (u) => (await fetch(u)).text(), href);
        const lines = body.split(/\r?\n/).filter(Boolean);
        expect(lines.length).toBe(format === 'csv' ? 31 : 30);
        if (format === 'ndjson') expect(lines.every((l) => JSON.parse(l).service === 'checkout')).toBe(true);
      }
      // Click-to-filter from a metadata value: + keeps only it, in the search.
      await page.getByTestId('log-row').first().click();
      await page
        .getByTestId('metadata-filters')
        .getByRole('button', { name: /^Filter in region / })
        .click();
      await page.waitForURL(/q=metadata\.region/);
      expect(decodeURIComponent(new URL(page.url()).searchParams.get('q')!)).toMatch(/^metadata\.region:(eu-west-1|us-east-1)$/);
    });
  }, 120_000);

  it("counts the Ingestion page's events by receive time: equal to what the consumers wrote, by kind", async () => {
    // Events whose own time is yesterday still count now, when they were received.
    const yesterday = new Date(Date.now() - 26 * 3600_000).toISOString();
    for (let i = 0; i < 3; i++) {
      const error = await ingest(dt.url, project.key, 'errors', {
        error_type: 'OldError',
        error_message: `old ${i}`,
        stack_trace: '',
        service: 'cart',
        timestamp: yesterday,
      });
      const llm = await ingest(dt.url, project.key, 'llm', {
        model: 'gpt-4o',
        provider: 'openai',
        operation: 'chat',
        input_tokens: 1,
        output_tokens: 1,
        latency_ms: 100,
        service: 'assistant',
      });
      expect([error.status, llm.status]).toEqual([200, 200]);
    }
    await page.goto(at('/ingestion'));
    const TOPIC = { log: 'logs', error: 'errors', span: 'spans', llm: 'llm' } as const;
    const written = async (kind: keyof typeof TOPIC) =>
      Number(
        (await page
          .getByTestId('consumers-table')
          .locator('tbody tr')
          .filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${TOPIC[kind]}-sink$`) }) })
          .locator('td')
          .nth(3)
          .textContent())!.replace(/\D/g, ''),
      );
    const shown = async (kind: keyof typeof TOPIC) => Number((await page.getByTestId(`ingested-${kind}`).textContent())!.replace(/\D/g, ''));
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByTestId('consumers-table').waitFor();
          const out: Record<string, [number, number]> = {};
          for (const k of Object.keys(TOPIC) as Array<keyof typeof TOPIC>) out[k] = [await shown(k), await written(k)];
          return out;
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toEqual({ log: [180, 180], error: [7, 7], span: [7 + BIG.spans, 7 + BIG.spans], llm: [23, 23] });
    await page.getByText('by receive time').first().waitFor();
  }, 120_000);

  it('threw no script error and broke no CSP rule', () => {
    expect(b.pageErrors).toEqual([]);
  });
});
