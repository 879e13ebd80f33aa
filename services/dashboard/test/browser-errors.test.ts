import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable, horizontalOverflow, NO_BROWSER_REASON, openBrowser, type BrowserSession } from './support/browser.ts';
import { createProjectInUi, fillSetupForm, ingest, startDashboard } from './support/dashboard.ts';
import { logIn, OWNER } from './support/demo-project.ts';

// The errors list and an error group's page in headless Chromium, at a desktop's 1440x900 and
// a phone's 390x844 (docs/dashboard.md, "Errors"): users affected and releases on the list,
// search in the logs' syntax, the service picker, sorting, merging two groups by hand; the
// group's users, chart with release markers, tags, releases and every occurrence page by page.

const ORDERS = 25;

describe.skipIf(!browserAvailable())(`errors list and group page in Chromium${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  let project: { id: string; key: string };
  const at = (path: string) => `/projects/${project.id}${path}`;
  const rows = (page: Page) => page.getByTestId('error-group-row');
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url, { viewport: { width: 1440, height: 900 } });
    await b.page.goto('/');
    await b.page.waitForURL('**/setup');
    await fillSetupForm(b.page, dt.setupCode!.code, OWNER.username, OWNER.password);
    await b.page.waitForURL('**/projects');
    project = await createProjectInUi(b.page, 'shop');
    for (let i = 0; i < ORDERS; i++) {
      const res = await ingest(dt.url, project.key, 'errors', {
        service: i % 5 === 0 ? 'web' : 'api',
        release: `2026.11.${1 + Math.floor((i * 3) / ORDERS)}`,
        error_message: `Order ${4000 + i} not found`,
        stack_trace: `NotFoundError: Order ${4000 + i} not found\n    at loadOrder (/app/src/orders.ts:${10 + i}:3)`,
        user_id: `user-${i % 4}`,
        context: { browser: i % 2 ? 'Firefox' : 'Chrome', tenant: `t${i % 3}` },
      });
      expect(res.status).toBe(200);
    }
    for (const [fn, msg] of [
      ['payInvoice', 'Card declined'],
      ['refund', 'Refund window closed'],
    ])
      await ingest(dt.url, project.key, 'errors', {
        service: 'api',
        release: '2026.11.3',
        error_message: msg,
        stack_trace: `PaymentError: ${msg}\n    at ${fn} (/app/src/pay.ts:1:1)`,
      });
  }, 180_000);
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  it('lists groups with events, users and releases; searches, picks a service, sorts, and merges two groups', async () => {
    const { page } = b;
    await page.goto(at('/errors?range=1h'));
    // stored about a second after the 200; the list loads once
    for (let i = 0; i < 30 && (await rows(page).count()) < 3; i++) {
      await page.waitForTimeout(500);
      await page.reload();
      await page.locator('main.content > *').first().waitFor();
    }
    await poll(async () => (await rows(page).filter({ hasText: 'Order' }).getByTestId('group-events').textContent())?.trim()).toBe(String(ORDERS));
    const orders = rows(page).filter({ hasText: 'Order' });
    expect((await orders.getByTestId('group-users').textContent())?.trim()).toBe('4');
    await poll(async () => (await orders.getByTestId('group-releases').textContent())?.trim()).toBe('2026.11.1 → 2026.11.3');

    await page.getByLabel('Search').fill('user:user-3 tenant:t2');
    await page.getByRole('button', { name: 'Search' }).click();
    await poll(() => new URL(page.url()).searchParams.get('q')).toBe('user:user-3 tenant:t2');
    await poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).textContent()).toContain('NotFoundError');
    await page.getByLabel('Search').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await poll(() => rows(page).count()).toBe(3);

    await page.locator('select[name=service]').selectOption('web');
    await poll(() => rows(page).count()).toBe(1);
    await page.locator('select[name=service]').selectOption('');
    await poll(() => rows(page).count()).toBe(3);
    await page.getByLabel('Sort by').selectOption('events');
    await poll(() => new URL(page.url()).searchParams.get('sort')).toBe('events');
    await poll(async () => (await rows(page).first().textContent()) ?? '').toContain('Order');

    // Merge the two payment errors: one group is left, with both events.
    await rows(page).filter({ hasText: 'Card declined' }).getByRole('checkbox').check();
    await rows(page).filter({ hasText: 'Refund window closed' }).getByRole('checkbox').check();
    page.once('dialog', (d) => d.accept());
    await page.getByTestId('merge-groups').click();
    await poll(() => rows(page).count()).toBe(2);
    expect(await rows(page).filter({ hasText: 'PaymentError' }).getByTestId('group-events').textContent()).toBe('2');
  }, 90_000);

  it("shows a group's users, chart with release markers, tags, releases, and every occurrence page by page", async () => {
    const { page } = b;
    await page.goto(at('/errors?range=1h'));
    await rows(page).filter({ hasText: 'Order' }).getByRole('link').click();
    await page.waitForURL('**/errors/*');
    await poll(async () => (await page.getByTestId('group-users').textContent())?.trim()).toBe('4');
    expect((await page.getByTestId('group-count').textContent())?.trim()).toBe(String(ORDERS));
    await poll(() => page.getByTestId('release-marker').count()).toBe(3);
    const tags = page.getByTestId('group-tags');
    expect(await tags.textContent()).toContain('Browser');
    const tag = (name: string) => tags.getByTestId('group-tag').filter({ has: page.getByRole('heading', { name, exact: true }) });
    expect(await tag('Browser').textContent()).toBe('BrowserChrome13 · 52%Firefox12 · 48%');
    expect(await tag('tenant').textContent()).toBe('tenantt09 · 36%t18 · 32%t28 · 32%');
    expect(await tag('Release').textContent()).toContain('2026.11.19 · 36%');
    expect(await page.getByTestId('group-releases').locator('tbody tr').count()).toBe(3);
    expect(await page.getByTestId('occurrences').locator('tbody tr').count()).toBe(20);
    await page.getByTestId('more-occurrences').click();
    await poll(() => page.getByTestId('occurrences').locator('tbody tr').count()).toBe(ORDERS);
    expect(await page.getByTestId('more-occurrences').count()).toBe(0);
    expect(await horizontalOverflow(page)).toBe(0);
    expect(b.pageErrors).toEqual([]);
  }, 60_000);

  it('fits a phone (390x844): the list and the group page are no wider than the screen', async () => {
    const phone = await openBrowser(dt.url, { viewport: { width: 390, height: 844 } });
    try {
      const { page } = phone;
      await logIn(page, at('/errors?range=1h'));
      await poll(() => rows(page).count()).toBe(2);
      expect(await horizontalOverflow(page), 'the list').toBe(0);
      expect(await page.getByLabel('Search').isVisible()).toBe(true);
      await rows(page).filter({ hasText: 'Order' }).getByRole('link').click();
      await page.getByTestId('group-chart').waitFor();
      await page.getByTestId('group-tags').waitFor();
      await page.waitForTimeout(300);
      expect(await horizontalOverflow(page), 'the group page').toBe(0);
      const chart = await page.getByTestId('group-chart').boundingBox();
      expect(chart!.x + chart!.width).toBeLessThanOrEqual(390);
      expect(phone.pageErrors).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 60_000);
});
