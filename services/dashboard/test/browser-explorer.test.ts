import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, horizontalOverflow, NO_BROWSER_REASON, openBrowser, type BrowserSession } from './support/browser.ts';
import { ingest } from './support/dashboard.ts';
import { DEMO, demoLogs } from './support/demo-data.ts';
import { logIn, openDemo } from './support/demo-project.ts';

// The logs explorer as a person uses it, in headless Chromium against the embedded process,
// over the demo project (support/demo-data.ts): the volume histogram and facets, the search
// syntax over message and metadata, filtering from facets, saved searches, zooming and
// absolute ranges, surrounding lines, columns for metadata keys, a numeric metadata key's
// facet as ranges, the live tail, and "/" to search.

const ALL = demoLogs(0).flatMap(({ service, logs }) =>
  logs.map((l) => ({ ...l, service }) as { service: string; level: string; message: string; metadata: Record<string, unknown>; request_id: string }),
);
const count = (f: (l: (typeof ALL)[number]) => boolean) => ALL.filter(f).length;
/** The machine is shared: a list can take seconds to load. */
const SLOW = { timeout: 15_000 };

describe.skipIf(!browserAvailable())(`logs explorer in Chromium${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let demo: Awaited<ReturnType<typeof openDemo>>;
  let dt: Awaited<ReturnType<typeof openDemo>>['dt'];
  let b: BrowserSession;
  let project: Awaited<ReturnType<typeof openDemo>>['project'];
  const logsUrl = (query = '') => `/projects/${project.id}/logs${query}`;
  const rows = () => b.page.locator('[data-testid=log-row]');
  const heading = () => b.page.getByTestId('log-volume').locator('h2');
  const search = async (q: string) => {
    await b.page.getByTestId('log-search').fill(q);
    await b.page.getByTestId('log-search').press('Enter');
  };

  beforeAll(async () => {
    demo = await openDemo();
    ({ dt, b, project } = demo);
  }, 120_000);
  afterAll(async () => demo?.close());

  it('shows the volume of matching logs by level and facets with exact counts', async () => {
    const { page } = b;
    await page.goto(logsUrl());
    await expect.poll(() => heading().textContent()).toBe(`${ALL.length} matching logs`);
    await page.getByTestId('log-volume-chart').locator('canvas').first().waitFor();
    for (const level of ['debug', 'info', 'warn', 'error']) {
      const row = page
        .getByTestId('facet-level')
        .locator('li')
        .filter({ has: page.locator('.facet-label', { hasText: new RegExp(`^${level}$`) }) });
      expect(await row.locator('.facet-count').textContent()).toBe(String(count((l) => l.level === level)));
    }
    expect(await page.getByTestId('facet-service').locator('.facet-label').allTextContents()).toHaveLength(DEMO.services.length);
    // Metadata keys and their most common values, from the newest logs.
    const users = page.getByTestId('facet-metadata.user_id');
    expect(await users.locator('li').first().locator('.facet-label').textContent()).toBe(DEMO.user);
    expect(await users.locator('li').first().locator('.facet-count').textContent()).toBe(String(count((l) => l.metadata.user_id === DEMO.user)));
  }, 60_000);

  it('searches message and metadata with the documented syntax and highlights the words', async () => {
    const { page } = b;
    await page.goto(logsUrl());
    await search(`metadata.user_id:${DEMO.user}`);
    const ofUser = count((l) => l.metadata.user_id === DEMO.user);
    await expect.poll(() => heading().textContent()).toBe(`${ofUser} matching logs`);
    await expect.poll(() => rows().count()).toBe(ofUser);
    expect(new URL(page.url()).searchParams.get('q')).toBe(`metadata.user_id:${DEMO.user}`);

    await search('timeout -service:auth');
    const timeouts = count((l) => l.message.includes('timeout') && l.service !== 'auth');
    await expect.poll(() => rows().count()).toBe(timeouts);
    expect(new Set(await rows().locator('mark').allTextContents())).toEqual(new Set(['timeout']));

    await search('level:>=warn');
    await expect.poll(() => heading().textContent()).toBe(`${count((l) => l.level === 'warn' || l.level === 'error')} matching logs`);

    await search('"open');
    await page.getByRole('alert').filter({ hasText: 'search: a quote is not closed (at character 1)' }).first().waitFor();
  }, 60_000);

  it('filters in and out from the facets: service as a page filter, the rest in the search', async () => {
    const { page } = b;
    await page.goto(logsUrl());
    await page.getByRole('button', { name: 'Filter in Service checkout' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('service')).toBe('checkout');
    await page.getByTestId('filter-chips').getByText('service: checkout').waitFor();
    await expect.poll(() => heading().textContent()).toBe(`${count((l) => l.service === 'checkout')} matching logs`);
    await page.getByRole('button', { name: 'Filter out Level debug' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('-level:debug');
    await expect.poll(() => heading().textContent()).toBe(`${count((l) => l.service === 'checkout' && l.level !== 'debug')} matching logs`);
    expect(await rows().locator('.badge').allTextContents()).not.toContain('debug');
    await page.getByRole('button', { name: 'Remove filter service' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('service')).toBeNull();
    await expect.poll(() => heading().textContent()).toBe(`${count((l) => l.level !== 'debug')} matching logs`);
  }, 60_000);

  it('saves a search for the project and opens it again', async () => {
    const { page } = b;
    const q = `user_id:${DEMO.user} level:error`;
    await page.goto(logsUrl());
    await search(q);
    await expect.poll(() => rows().count()).toBe(count((l) => l.metadata.user_id === DEMO.user && l.level === 'error'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByLabel('Name of this search').fill('errors of u_1042');
    await page.getByRole('button', { name: 'Save search' }).click();
    await page.getByTestId('saved-menu').locator('summary').filter({ hasText: 'Saved (1)' }).waitFor();
    await page.goto(logsUrl());
    await expect.poll(() => rows().count()).toBe(100);
    await page.getByTestId('saved-menu').locator('summary').click();
    await page.getByTestId('saved-query').filter({ hasText: 'errors of u_1042' }).click();
    await expect.poll(() => page.getByTestId('log-search').inputValue()).toBe(q);
    await expect.poll(() => rows().count()).toBe(count((l) => l.metadata.user_id === DEMO.user && l.level === 'error'));
  }, 60_000);

  it('zooms into the part of the histogram dragged across, and takes a typed absolute range', async () => {
    const { page } = b;
    await page.goto(logsUrl('?range=1h'));
    await expect.poll(() => heading().textContent()).toBe(`${ALL.length} matching logs`);
    const over = page.getByTestId('log-volume-chart').locator('.u-over');
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).not.toBeNull();
    const url = new URL(page.url());
    const [from, to] = [Number(url.searchParams.get('from')), Number(url.searchParams.get('to'))];
    expect(to - from).toBeGreaterThan(10 * 60_000);
    expect(to - from).toBeLessThan(30 * 60_000);
    expect(url.searchParams.get('range')).toBeNull();
    await page.getByTestId('range-label').waitFor();
    await expect.poll(async () => Number((await heading().textContent())!.split(' ')[0])).toBeLessThan(ALL.length);
    expect(Number((await heading().textContent())!.split(' ')[0])).toBeGreaterThan(0);
    // Back returns to the hour; a click on a bar zooms to its bucket (the hour and the minute
    // ahead a relative range reaches, in 60 whole-minute buckets: two minutes each).
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get('range')).toBe('1h');
    await expect.poll(() => heading().textContent()).toBe(`${ALL.length} matching logs`);
    const bar = (await over.boundingBox())!;
    await page.mouse.click(bar.x + bar.width * 0.9, bar.y + bar.height - 2);
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).not.toBeNull();
    const bucket = new URL(page.url());
    expect(Number(bucket.searchParams.get('to')) - Number(bucket.searchParams.get('from'))).toBe(2 * 60_000);
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get('range')).toBe('1h');

    // A custom range, typed in UTC: the last 10 minutes of the demo data.
    await page.getByTestId('zone-switch').getByRole('button', { name: 'UTC' }).click();
    await page.getByTestId('time-range').selectOption('custom');
    const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16);
    const start = Math.floor(project.sentAt / 60_000) * 60_000 - 10 * 60_000;
    await page.getByTestId('custom-range').getByLabel('From').fill(iso(start));
    await page
      .getByTestId('custom-range')
      .getByLabel('To')
      .fill(iso(start + 11 * 60_000));
    await page.getByTestId('custom-range').getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe(String(start));
    expect(await page.getByTestId('range-label').textContent()).toContain('UTC');
    const inRange = demoLogs(project.sentAt)
      .flatMap((s) => s.logs)
      .filter((l) => Date.parse(l.timestamp as string) >= start && Date.parse(l.timestamp as string) <= start + 11 * 60_000).length;
    expect(inRange).toBeGreaterThan(0);
    await expect.poll(() => heading().textContent()).toBe(`${inRange} matching logs`);
    await expect.poll(() => rows().count()).toBe(inRange);
    for (const t of await rows().locator('.time-cell').allTextContents()) expect(Date.parse(`${t.slice(0, 23).replace(' ', 'T')}Z`)).toBeGreaterThanOrEqual(start);
    await page.getByTestId('zone-switch').getByRole('button', { name: 'Local' }).click();
  }, 60_000);

  it('shows the lines logged around a log, of every service or of its own', async () => {
    const { page } = b;
    // One from the middle of the half hour, with more than ten logs on either side.
    const anchor = ALL.filter((l) => l.service === 'search' && l.message.startsWith('GET'))[6];
    await page.goto(logsUrl(`?q=${encodeURIComponent(`request_id:${anchor.request_id}`)}`));
    await expect.poll(() => rows().count(), SLOW).toBe(1);
    await rows().first().click();
    await page.getByTestId('show-surrounding').click();
    await page.getByTestId('surrounding-anchor').waitFor();
    expect(await page.getByTestId('surrounding-anchor').textContent()).toContain(anchor.message);
    await expect.poll(() => page.getByTestId('surrounding-row').count()).toBe(20);
    await page.getByTestId('surrounding').getByLabel('only search').check();
    await expect.poll(async () => new Set(await page.getByTestId('surrounding').locator('tbody tr td:nth-child(3)').allTextContents())).toEqual(new Set(['search']));
  }, 60_000);

  it('adds columns for metadata keys, showing each row its value, kept in the URL through a reload', async () => {
    const { page } = b;
    await page.setViewportSize({ width: 1440, height: 900 });
    try {
      await page.goto(logsUrl('?level=error'));
      const errors = ALL.filter((l) => l.level === 'error');
      await expect.poll(() => rows().count(), SLOW).toBe(errors.length);
      const menu = page.getByTestId('columns-menu');
      await menu.locator('summary').click();
      await menu.getByLabel('request_id').check();
      await expect.poll(() => new URL(page.url()).searchParams.get('cols'), SLOW).toBe('request_id');
      await menu.getByLabel('user_id').check();
      await expect.poll(() => new URL(page.url()).searchParams.get('cols'), SLOW).toBe('request_id,user_id');
      await menu.locator('summary').click();
      // Each row shows its own log's values: the request id names the log, the user is its.
      const shown = async () =>
        (await rows().evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('[data-testid=column-cell]')].map((td) => td.textContent)))).map(([rid, user]) => {
          const log = errors.find((l) => l.metadata.request_id === rid);
          return { rid, user, expected: log?.metadata.user_id };
        });
      const check = async () => {
        expect(await page.getByTestId('column-head').allTextContents()).toEqual(['request_id×', 'user_id×']);
        const cells = await shown();
        expect(cells).toHaveLength(errors.length);
        for (const c of cells) expect(c.user).toBe(c.expected);
        expect(new Set(cells.map((c) => c.rid)).size).toBe(errors.length);
      };
      await check();
      await page.reload();
      await expect.poll(() => rows().count(), SLOW).toBe(errors.length);
      await check();
      expect(await horizontalOverflow(page)).toBe(0);
      // Removed from its header; the list and its search stay.
      await page.getByRole('button', { name: 'Remove column request_id' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('cols'), SLOW).toBe('user_id');
      expect(await page.getByTestId('column-head').allTextContents()).toEqual(['user_id×']);
      expect(await rows().count()).toBe(errors.length);
    } finally {
      await page.setViewportSize({ width: 1360, height: 860 });
    }
  }, 60_000);

  it('on a phone, the metadata columns are lines of each row, within the width', async () => {
    const phone = await openBrowser(dt.url, { viewport: { width: 390, height: 844 } });
    try {
      await logIn(phone.page, logsUrl(`?cols=user_id&q=${encodeURIComponent(`user_id:${DEMO.user}`)}`));
      const list = phone.page.getByTestId('log-row');
      await expect.poll(() => list.count(), SLOW).toBe(count((l) => l.metadata.user_id === DEMO.user));
      const cell = list.first().getByTestId('column-cell');
      expect(await cell.textContent()).toBe(DEMO.user);
      expect(await cell.evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"user_id: "');
      const [row, box] = [(await list.first().boundingBox())!, (await cell.boundingBox())!];
      expect(box.width).toBeGreaterThan(row.width * 0.8);
      expect(await horizontalOverflow(phone.page)).toBe(0);
      expect(phone.pageErrors).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 60_000);

  it("shows a numeric metadata key's facet as ranges whose counts are the logs each range filters to", async () => {
    const { page } = b;
    await page.goto(logsUrl());
    await expect.poll(() => heading().textContent(), SLOW).toBe(`${ALL.length} matching logs`);
    const facet = page.getByTestId('facet-metadata.duration_ms');
    expect(await facet.getAttribute('data-ranges')).toBe('true');
    await facet.locator('summary').click();
    const ranges = facet.getByTestId('facet-range');
    await expect.poll(() => ranges.count(), SLOW).toBeGreaterThan(2);
    const shown = await ranges.evaluateAll((lis) =>
      lis.map((li) => [li.querySelector('.facet-label')!.textContent!, Number(li.querySelector('.facet-count')!.textContent!.replace(/,/g, ''))] as const),
    );
    // Every log has a duration: the ranges split them all, each once.
    expect(shown.reduce((sum, [, n]) => sum + n, 0)).toBe(ALL.length);
    const ms = (l: (typeof ALL)[number]) => l.metadata.duration_ms as number;
    for (const [i, [label, n]] of shown.entries()) {
      await page.goto(logsUrl());
      await page.getByTestId('facet-metadata.duration_ms').locator('summary').click();
      await ranges.nth(i).locator('.facet-value').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('q'), SLOW).toMatch(/^metadata\.duration_ms:/);
      await expect.poll(() => heading().textContent(), SLOW).toBe(`${n} matching logs`);
      // The search it wrote, read back: the same logs in the demo data.
      const q = new URL(page.url()).searchParams.get('q')!;
      const above = Number(/:>(-?[\d.]+)/.exec(q)?.[1] ?? -Infinity);
      const upTo = Number(/:<=(-?[\d.]+)/.exec(q)?.[1] ?? Infinity);
      expect(
        count((l) => ms(l) > above && ms(l) <= upTo),
        `${label}: ${q}`,
      ).toBe(n);
      await expect.poll(() => rows().count(), SLOW).toBe(n);
    }
    // Leaving a range out keeps the rest.
    await page.goto(logsUrl());
    await page.getByTestId('facet-metadata.duration_ms').locator('summary').click();
    await ranges
      .first()
      .getByRole('button', { name: /^Filter out/ })
      .click();
    await expect.poll(() => heading().textContent(), SLOW).toBe(`${ALL.length - shown[0][1]} matching logs`);
  }, 90_000);

  it('live tail marks and counts new logs, and holds them while paused', async () => {
    const { page } = b;
    await page.goto(logsUrl('?range=15m&service=tail'));
    await page.getByTestId('live-tail').check();
    const send = (messages: string[]) => ingest(dt.url, project.key, 'logs', { service: 'tail', logs: messages.map((message) => ({ level: 'info', message })) });
    expect((await send(['tail one', 'tail two', 'tail three'])).status).toBe(200);
    await expect.poll(() => page.getByTestId('tail-status').textContent(), { timeout: 10_000 }).toBe('3 new');
    expect(await page.locator('.log-row.log-new').count()).toBe(3);
    await page.getByTestId('tail-pause').click();
    expect((await send(['tail four', 'tail five'])).status).toBe(200);
    await expect.poll(() => page.getByTestId('tail-status').textContent(), { timeout: 10_000 }).toBe('Paused · 2 new waiting');
    expect(await page.getByText('tail four').count()).toBe(0);
    await page.getByTestId('tail-pause').click();
    await page.getByText('tail four').waitFor();
    expect(await page.getByTestId('tail-status').textContent()).toBe('5 new');
    expect(await page.locator('.log-row.log-new').count()).toBe(5);
  }, 60_000);

  it('"/" puts the cursor in the search box', async () => {
    const { page } = b;
    await page.goto(logsUrl());
    await rows().first().waitFor();
    await page.locator('h1').click();
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('log-search');
    await page.keyboard.type('timeout');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('timeout');
  }, 60_000);

  it('raised no script error and no CSP violation', () => {
    expect(b.pageErrors).toEqual([]);
  });
});
