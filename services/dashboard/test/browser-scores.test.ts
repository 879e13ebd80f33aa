import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { randomBytes } from 'node:crypto';
import { usersRepo } from '@devtrail/relational-store';
import { DevtrailClient } from '../../../libs/sdk/src/client.ts';
import { browserAvailable, horizontalOverflow, NO_BROWSER_REASON, openBrowser, reloadUntilVisible, screenshot, type BrowserSession } from './support/browser.ts';
import { createProjectInUi, fillSetupForm, startDashboard } from './support/dashboard.ts';

// Scores on the LLM page (docs/dashboard.md, "LLM usage"; docs/api.md, "Scores"): scores sent
// by devtrail's SDK show on their call's row and per session, their averages chart over time,
// and a member annotates a call from its detail; at 1440 px and 390 px, light and dark, saved
// as the screenshots docs/dashboard.md shows.

const M = 'sc4';
type Call = Record<string, any>;

describe.skipIf(!browserAvailable())(`scores in the dashboard${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  let project: { id: string; key: string };
  const calls = async (): Promise<Call[]> => {
    const r = await fetch(`${dt.url}/api/projects/${project.id}/llm-calls?limit=100`, { headers: { authorization: `Bearer ${dt.operatorToken}` } });
    return ((await r.json()) as { calls: Call[] }).calls;
  };

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url, { viewport: { width: 1440, height: 900 } });
    await b.page.goto('/');
    await b.page.waitForURL('**/setup');
    await fillSetupForm(b.page, dt.setupCode!.code, 'owner', 'correct horse battery');
    await b.page.waitForURL('**/projects');
    project = await createProjectInUi(b.page, 'scored');
    // Three turns of one chat, each in a trace of its own, scored by an evaluator and the user.
    const sdk = new DevtrailClient({ apiKey: project.key, baseUrl: dt.url, service: 'assistant' });
    const turns = [
      { q: `Where is order 42 ${M}?`, helpful: 0.9, thumbs: true },
      { q: `And order 43 ${M}?`, helpful: 0.35, thumbs: false },
      { q: `Thanks ${M}`, helpful: 0.7, thumbs: true },
    ];
    for (const t of turns) {
      await sdk.startSpan('chat turn', async () => {
        sdk.llmUsage({
          model: 'gpt-4o',
          provider: 'openai',
          operation: 'chat',
          inputTokens: 300,
          outputTokens: 40,
          latencyMs: 500,
          userId: `ann-${M}`,
          sessionId: `chat-${M}`,
          input: t.q,
          output: 'On its way.',
        });
        sdk.score({ name: 'helpfulness', value: t.helpful, comment: 'judged by the eval model' });
        sdk.userFeedback({ positive: t.thumbs, ...(t.thumbs ? {} : { comment: 'wrong order' }) });
      });
    }
    sdk.score({ name: 'tone', value: 'friendly', sessionId: `chat-${M}` });
    await sdk.close();
    // beforeAll cannot use expect.poll: poll by hand until the sinks have stored every score.
    for (const end = Date.now() + 20_000; (await calls()).flatMap((c) => c.scores).length < 6; await new Promise((r) => setTimeout(r, 200))) {
      if (Date.now() > end) throw new Error('the scores were not all stored in time');
    }
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  /** Light then dark, each fitting the window, saved as `name` and `name-dark`. */
  async function both(page: Page, name: string) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.getByTestId('llm-scores-chart').locator('canvas').first().waitFor();
      expect(await horizontalOverflow(page), `${name} (${scheme}) fits the window`).toBe(0);
      await page.getByTestId('llm-scores').scrollIntoViewIfNeeded();
      await screenshot(page, scheme === 'light' ? name : `${name}-dark`, { fullPage: false });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  it('shows each call’s scores, the sessions’ averages and the averages over time, and a member annotates a call', async () => {
    const { page } = b;
    await page.goto(`/projects/${project.id}/llm`);
    await page.getByTestId('llm-scores-row').first().waitFor({ timeout: 20_000 });
    const summary = await page.getByTestId('llm-scores-row').allTextContents();
    expect(summary.find((r) => r.startsWith('helpfulness'))).toContain('0.65');
    expect(summary.find((r) => r.startsWith('user_feedback'))).toContain('true 2 · false 1');
    const disliked = async () =>
      (await page.getByTestId('llm-call-scores-cell').allTextContents()).some((t) => t.includes('helpfulness: 0.35') && t.includes('user_feedback: false'));
    await expect.poll(disliked, { timeout: 10_000 }).toBe(true);
    expect(await page.getByTestId('llm-session-scores').first().textContent()).toContain('tone ×1');
    await both(page, 'llm-scores');

    // The member's annotation, on the call the user disliked.
    const row = page.getByTestId('llm-call-row').filter({ hasText: 'user_feedback: false' });
    await row.click();
    const detail = page.getByTestId('llm-call-scores');
    await detail.getByTestId('llm-score-item').first().waitFor();
    await detail.getByTestId('llm-annotate-name').fill('correctness');
    await detail.getByTestId('llm-annotate-value').fill('0');
    await detail.getByTestId('llm-annotate-comment').fill(`order 43 was never asked about ${M}`);
    await detail.getByTestId('llm-annotate-submit').click();
    await detail.getByText(`order 43 was never asked about ${M}`).waitFor();
    await detail.scrollIntoViewIfNeeded();
    await screenshot(page, 'llm-annotate', { fullPage: false });
    // Stored: after a reload (the form showed it at once) it is the call's, by the member who wrote it.
    await page.reload();
    await reloadUntilVisible(page, 'correctness: 0.00', 10_000);
    const stored = (await calls()).flatMap((c) => c.scores).find((s) => s.name === 'correctness');
    expect(stored).toMatchObject({ source: 'annotation', comment: `order 43 was never asked about ${M}`, on: 'call' });
    expect(stored.author).toMatch(/^user:/);
    expect(b.pageErrors).toEqual([]);
  }, 60_000);

  it('shows a viewer the scores but no annotation form', async () => {
    // A viewer of the project with a session of its own (the login itself: login-defences.test.ts).
    const users = usersRepo(dt.adapters.relational);
    const viewer = (await users.create(`viewer-${M}`, 'not-a-hash', 'viewer'))!;
    await users.addMember(project.id, viewer.id);
    const token = randomBytes(32).toString('base64url');
    await users.createSession(viewer.id, token, randomBytes(32).toString('base64url'), new Date(Date.now() + 3600_000));
    const v = await openBrowser(dt.url);
    try {
      // The owner's session cookie as the browser holds it, with the viewer's token.
      const owner = (await b.context.cookies()).find((c) => c.name === '__Host-dt_session')!;
      await v.context.addCookies([{ ...owner, value: token }]);
      await v.page.goto(`/projects/${project.id}/llm`);
      await v.page.getByTestId('llm-call-row').first().click({ timeout: 20_000 });
      await v.page.getByTestId('llm-score-item').first().waitFor();
      expect(await v.page.getByTestId('llm-annotate').count()).toBe(0);
      expect(v.pageErrors).toEqual([]);
    } finally {
      await v.close();
    }
  }, 60_000);

  it('fits a phone, light and dark', async () => {
    const phone = await openBrowser(dt.url, { viewport: { width: 390, height: 844 } });
    try {
      await phone.page.goto('/');
      await phone.page.context().addCookies(await b.context.cookies());
      await phone.page.goto(`/projects/${project.id}/llm`);
      await phone.page.getByTestId('llm-scores-row').first().waitFor({ timeout: 20_000 });
      await both(phone.page, 'llm-scores-phone');
      await phone.page.getByTestId('llm-call-row').first().click();
      await phone.page.getByTestId('llm-annotate').waitFor();
      expect(await horizontalOverflow(phone.page), 'the annotation form fits a phone').toBe(0);
      expect(phone.pageErrors).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 60_000);
});
