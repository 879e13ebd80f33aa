import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable, horizontalOverflow, NO_BROWSER_REASON, openBrowser, screenshot, type BrowserSession } from './support/browser.ts';
import { createProjectInUi, fillSetupForm, ingest, startDashboard } from './support/dashboard.ts';
import { logIn, OWNER } from './support/demo-project.ts';

// The prompt registry in Chromium (docs/dashboard.md, "Prompts"): reached from the LLM page, a
// prompt created, a new version written, a label moved, and a version's page comparing its calls
// with the previous version's; at 1440 px and on a 390 px phone, light and dark, each fitting
// the window (the screenshots of docs/dashboard.md: DEVTRAIL_UPDATE_SCREENSHOTS=1).

/** Both schemes of what the page shows now: dark is dark, nothing overflows, a screenshot each. */
async function both(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const [r] = (background.match(/\d+/g) ?? ['0']).map(Number);
    expect(scheme === 'dark' ? r < 60 : r > 200, `${name} (${scheme}): ${background}`).toBe(true);
    expect(await horizontalOverflow(page), `${name} (${scheme}) fits the window`).toBe(0);
    await screenshot(page, scheme === 'light' ? name : `${name}-dark`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe.skipIf(!browserAvailable())(`prompts in the dashboard${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  let project: { id: string; key: string };

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url, { viewport: { width: 1440, height: 900 } });
    await b.page.goto('/');
    await b.page.waitForURL('**/setup');
    await fillSetupForm(b.page, dt.setupCode!.code, OWNER.username, OWNER.password);
    await b.page.waitForURL('**/projects');
    project = await createProjectInUi(b.page, 'assistant');
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  it('creates a prompt from the LLM page, writes a new version and moves production to it', async () => {
    const { page } = b;
    await page.goto(`/projects/${project.id}/llm`);
    await page.getByTestId('llm-prompts-link').click();
    await page.waitForURL('**/llm/prompts');
    await page.getByTestId('new-prompt').click();
    await page.locator('input[name="prompt-name"]').fill('support-answer');
    await page.locator('textarea[name="prompt-text"]').fill('Answer {{question}} politely.');
    await page.locator('textarea[name="prompt-config"]').fill('{"model": "gpt-4o-mini", "temperature": 0.2}');
    await page.locator('input[name="prompt-labels"]').fill('production');
    await page.locator('input[name="prompt-message"]').fill('First wording');
    await page.getByTestId('save-prompt').click();
    await page.waitForURL('**/llm/prompts/support-answer/versions/1');
    await page.getByTestId('version-content').getByText('Answer {{question}} politely.').waitFor();

    await page.goto(`/projects/${project.id}/llm/prompts/support-answer`);
    await page.getByTestId('new-version').click();
    const text = page.locator('textarea[name="prompt-text"]');
    await expect.poll(() => text.inputValue()).toBe('Answer {{question}} politely.'); // written from the latest
    await text.fill('Answer {{question}} in two sentences.');
    await page.locator('input[name="prompt-message"]').fill('Shorter answers');
    await page.getByTestId('save-prompt').click();
    await page.waitForURL('**/llm/prompts/support-answer/versions/2');

    await page.goto(`/projects/${project.id}/llm/prompts/support-answer`);
    await page.locator('select[name="label-version"]').selectOption('2');
    await page.getByTestId('set-label').click();
    const rows = page.getByTestId('version-row');
    await expect.poll(async () => rows.first().getByTestId('prompt-label').allTextContents()).toEqual(['latest', 'production']);
    expect(await rows.nth(1).getByTestId('prompt-label').allTextContents()).toEqual([]);
    await page.goto(`/projects/${project.id}/llm/prompts`);
    await page.getByTestId('prompt-row').first().waitFor();
    await both(page, 'prompts');
  }, 60_000);

  it("compares a version's calls with the previous version's, on a desktop and on a phone", async () => {
    const call = (version: number, cost: number, latency: number) => ({
      model: 'gpt-4o-mini',
      provider: 'openai',
      operation: 'chat',
      input_tokens: 1000,
      output_tokens: version === 2 ? 60 : 150,
      latency_ms: latency,
      cost_usd: cost,
      metadata: { 'prompt.name': 'support-answer', 'prompt.version': version },
    });
    for (const body of [call(1, 0.004, 900), call(1, 0.006, 1100), call(2, 0.002, 500), call(2, 0.002, 600), call(2, 0.003, 700)]) {
      expect((await ingest(dt.url, project.key, 'llm', body)).status).toBe(200);
    }
    const { page } = b;
    const now = page.getByTestId('comparison-now');
    await expect
      .poll(
        async () => {
          await page.goto(`/projects/${project.id}/llm/prompts/support-answer/versions/2`);
          await page.getByTestId('comparison-table').waitFor();
          return now.first().textContent();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe('3');
    const cells = await page.getByTestId('comparison-row').first().locator('td').allTextContents();
    expect(cells).toEqual(['3', '2', '+50%']);
    expect(await page.getByTestId('comparison-row').nth(1).locator('td').first().textContent()).toBe('$0.007');
    await both(page, 'prompt-version');
    await page.getByTestId('version-calls-link').click();
    await page.waitForURL('**/llm?**');
    await expect.poll(() => page.getByTestId('llm-call-row').count()).toBe(3);

    const phone = await openBrowser(dt.url, { viewport: { width: 390, height: 844 } });
    try {
      await logIn(phone.page, `/projects/${project.id}/llm/prompts/support-answer/versions/2`);
      await phone.page.getByTestId('comparison-table').waitFor();
      await both(phone.page, 'prompt-version-phone');
      for (const [path, ready] of [
        ['/llm/prompts/support-answer', 'version-row'],
        ['/llm/prompts', 'prompt-row'],
        ['/llm', 'llm-prompts-link'],
      ]) {
        await phone.page.goto(`/projects/${project.id}${path}`);
        await phone.page.getByTestId(ready).first().waitFor();
        expect(await horizontalOverflow(phone.page), path).toBe(0);
      }
      expect(phone.pageErrors).toEqual([]);
    } finally {
      await phone.close();
    }
    expect(b.pageErrors).toEqual([]);
  }, 60_000);
});
