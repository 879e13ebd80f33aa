import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, NO_BROWSER_REASON, openBrowser, screenshot, type BrowserSession } from './support/browser.ts';
import { createProjectInUi, fillSetupForm, ingest, startDashboard } from './support/dashboard.ts';

// A project's data policy as a person sets it, in real headless Chromium against the
// embedded process (docs/data.md): retention shown in effect, a scrubbing rule applied to
// the next event, quotas, a deletion with its progress, and the project's deletion.

const OWNER = { username: 'owner', password: 'correct horse battery' };

describe.skipIf(!browserAvailable())(`data settings in Chromium${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  let project: { id: string; key: string };
  const tab = (name: string) => `/projects/${project.id}/settings?tab=${name}`;
  const read = async (path: string) =>
    (await (await fetch(`${dt.url}/api/projects/${project.id}${path}`, { headers: { authorization: `Bearer ${dt.operatorToken}` } })).json()) as any;

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url);
    await b.page.goto('/');
    await b.page.waitForURL('**/setup');
    await fillSetupForm(b.page, dt.setupCode!.code, OWNER.username, OWNER.password);
    await b.page.waitForURL('**/projects');
    project = await createProjectInUi(b.page, 'owned');
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  it('sets the retention per kind and shows what is in effect', async () => {
    const { page } = b;
    await page.goto(tab('retention'));
    await expect.poll(() => page.getByTestId('effective-retention-logs').textContent()).toContain('30 days');
    await page.locator('input[name="retention-logs"]').fill('7');
    await page.getByTestId('save-retention').click();
    await expect.poll(() => page.getByTestId('effective-retention-logs').textContent()).toContain('7 days');
    expect(await page.getByTestId('effective-retention-logs').textContent()).toContain('this project');
    expect(await page.getByTestId('effective-retention-errors').textContent()).toContain('default');
    await screenshot(page, 'settings-retention');
  }, 30_000);

  it('adds a scrubbing rule that applies to the next event, defaults still on', async () => {
    const { page } = b;
    await page.goto(tab('scrubbing'));
    await page.getByRole('button', { name: 'Add rule' }).click();
    const row = page.getByTestId('scrub-rules').locator('tbody tr').first();
    await row.locator('select').first().selectOption('email');
    await row.locator('select').nth(1).selectOption('mask');
    await page.getByTestId('save-scrubbing').click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await screenshot(page, 'settings-scrubbing');
    expect((await ingest(dt.url, project.key, 'logs', { logs: [{ level: 'info', message: 'hi ann@example.com', metadata: { password: 'p' } }] })).status).toBe(200);
    await expect.poll(async () => (await read('/logs')).logs.length, { timeout: 10_000 }).toBe(1);
    const [log] = (await read('/logs')).logs;
    expect(log.message).toBe('hi ***************');
    expect(log.metadata).toEqual({ password: '[Filtered]' });
  }, 30_000);

  it('sets quotas, the spike guard and sampling', async () => {
    const { page } = b;
    await page.goto(tab('quotas'));
    await page.locator('input[name="quota-logs-minute"]').fill('5');
    await page.locator('input[name="spike-guard"]').check();
    await page.locator('input[name="sample-spans"]').fill('0.5');
    await page.getByTestId('save-quotas').click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const policy = (await (
      await fetch(`${dt.url}/api/admin/projects/${project.id}/data-policy`, { headers: { authorization: `Bearer ${dt.operatorToken}` } })
    ).json()) as any;
    expect(policy.policy.quotas.logs).toEqual({ per_minute: 5, per_day: null });
    expect(policy.policy.spike_guard.enabled).toBe(true);
    expect(policy.effective.sampling.spans).toBe(0.5);
    const batch = { logs: Array.from({ length: 4 }, () => ({ level: 'info', message: 'x' })) };
    expect((await ingest(dt.url, project.key, 'logs', batch)).status).toBe(200);
    expect((await ingest(dt.url, project.key, 'logs', batch)).status).toBe(429);
  }, 30_000);

  it("deletes one service's events with progress, then the project", async () => {
    const { page } = b;
    await page.goto(tab('delete'));
    await page.locator('input[name="delete-service"]').fill('unknown-service');
    await page.getByTestId('delete-events').click();
    await page.getByTestId('confirm-button').click();
    // This deletion's row (the list may still show only older ones for a moment).
    const row = page.getByTestId('deletion-row').filter({ hasText: 'unknown-service' }).first();
    await expect
      .poll(
        () =>
          row
            .getByTestId('deletion-status')
            .textContent()
            .catch(() => ''),
        { timeout: 20_000 },
      )
      .toBe('done');
    expect(await row.getByTestId('deletion-percent').textContent()).toBe('100%');
    await screenshot(page, 'settings-delete');
    await page.getByTestId('delete-project').click();
    await page.getByTestId('confirm-button').click();
    await page.waitForURL('**/projects');
    await expect.poll(() => page.getByTestId('deletions-table').textContent(), { timeout: 20_000 }).toContain('done');
    expect(await page.getByTestId('deletions-table').textContent()).toContain('project “owned”');
  }, 60_000);
});
