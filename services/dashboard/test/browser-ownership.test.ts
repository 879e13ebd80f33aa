import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable, horizontalOverflow, NO_BROWSER_REASON, openBrowser, type BrowserSession } from './support/browser.ts';
import { createProjectInUi, fillSetupForm, ingest, startDashboard } from './support/dashboard.ts';
import { logIn, OWNER } from './support/demo-project.ts';

// Owning an issue on the group page in headless Chromium, at a desktop's 1440x900 and a phone's
// 390x844 (docs/alerts.md, "Owning an issue"): assigning it (and the list's "Assigned to me"),
// its activity with who and when, a comment, and merging a similar group from "Similar issues".

describe.skipIf(!browserAvailable())(`owning an issue in Chromium${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  let project: { id: string; key: string };
  const at = (path: string) => `/projects/${project.id}${path}`;
  const rows = (page: Page) => page.getByTestId('error-group-row');
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
  /** The list until it shows n groups: events are stored about a second after the 200, and the list loads once. */
  async function listOf(page: Page, n: number, query = '') {
    await page.goto(at(`/errors?range=1h${query}`));
    for (let i = 0; i < 30 && (await rows(page).count()) !== n; i++) {
      await page.waitForTimeout(500);
      await page.reload();
      await page.locator('main.content > *').first().waitFor();
    }
    expect(await rows(page).count()).toBe(n);
  }
  // Two groups of one call site (another type each): similar; a third elsewhere: not.
  const report = (type: string, fn: string) => ({
    service: 'api',
    error_message: `${type} in ${fn}`,
    stack_trace: `${type}: ${type} in ${fn}\n    at ${fn} (/app/src/${fn}.ts:10:3)\n    at ${fn === 'refund' ? 'cron' : 'handle'} (/app/src/routes.ts:4:1)`,
  });

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url, { viewport: { width: 1440, height: 900 } });
    await b.page.goto('/');
    await b.page.waitForURL('**/setup');
    await fillSetupForm(b.page, dt.setupCode!.code, OWNER.username, OWNER.password);
    await b.page.waitForURL('**/projects');
    project = await createProjectInUi(b.page, 'shop');
    for (const [type, fn, n] of [
      ['NotFoundError', 'loadOrder', 3],
      ['TypeError', 'loadOrder', 2],
      ['RangeError', 'refund', 1],
    ] as const)
      for (let i = 0; i < n; i++) expect((await ingest(dt.url, project.key, 'errors', report(type, fn))).status).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  it('assigns, comments, shows the activity, and merges a similar issue (desktop)', async () => {
    const { page } = b;
    await listOf(page, 3);
    await rows(page).filter({ hasText: 'NotFoundError' }).getByRole('link').click();
    const ownership = page.getByTestId('ownership');
    await ownership.waitFor();

    await page.getByTestId('assignee-select').selectOption({ label: OWNER.username });
    await poll(() => page.getByTestId('triage-history').locator('tr[data-action="assign"]').textContent()).toContain(`assign to ${OWNER.username}`);
    expect(await page.getByTestId('triage-history').locator('tr[data-action="assign"]').textContent()).toContain(OWNER.username);

    await page.getByTestId('comment-input').fill('Started after the cache change');
    await page.getByRole('button', { name: 'Comment' }).click();
    await poll(() => page.getByTestId('comment').first().textContent()).toContain('Started after the cache change');

    const similar = page.getByTestId('similar-issue');
    await poll(() => similar.count()).toBe(1);
    expect(await similar.textContent()).toContain('TypeError');
    await similar.getByRole('button', { name: 'Merge into this' }).click();
    await poll(() => similar.count()).toBe(0);
    await poll(() => page.getByTestId('triage-history').locator('tr[data-action="merge"]').count()).toBe(1);

    // the list: the merged group is gone, the assignee shows, and "Assigned to me" keeps only it
    await listOf(page, 2);
    // the merged group reads with its latest event, of either type
    expect(await rows(page).filter({ hasText: 'in loadOrder' }).getByTestId('group-assignee').textContent()).toBe(OWNER.username);
    await page.getByTestId('assigned-to-me').check();
    await poll(() => page.url()).toContain('assigned=me');
    await poll(() => rows(page).count()).toBe(1);
    await page.goBack();
    await poll(() => rows(page).count()).toBe(2);
    expect(b.pageErrors).toEqual([]);
  }, 90_000);

  it('fits a phone (390x844): assigning and commenting on the group page, no wider than the screen', async () => {
    const phone = await openBrowser(dt.url, { viewport: { width: 390, height: 844 } });
    try {
      const { page } = phone;
      await logIn(page, at('/errors?range=1h'));
      await listOf(page, 2);
      await rows(page).filter({ hasText: 'RangeError' }).getByRole('link').click();
      await page.getByTestId('ownership').waitFor();
      await page.getByTestId('assignee-select').selectOption({ label: OWNER.username });
      await poll(() => page.getByTestId('triage-history').locator('tr[data-action="assign"]').count()).toBe(1);
      await page.getByTestId('comment-input').fill('On it from my phone');
      await page.getByRole('button', { name: 'Comment' }).click();
      await poll(() => page.getByTestId('comment').first().textContent()).toContain('On it from my phone');
      await page.waitForTimeout(300);
      expect(await horizontalOverflow(page), 'the group page').toBe(0);
      const box = await page.getByTestId('comment-input').boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      expect(phone.pageErrors).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 60_000);
});
