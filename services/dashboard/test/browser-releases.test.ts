import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, horizontalOverflow, NO_BROWSER_REASON, openBrowser, type BrowserSession } from './support/browser.ts';
import { createProjectInUi, fillSetupForm, startDashboard } from './support/dashboard.ts';
import { logIn, OWNER } from './support/demo-project.ts';
import { DEMO_SESSIONS, sendDemoSessions } from './support/demo-sessions.ts';

// The releases page in headless Chromium (docs/dashboard.md, "Releases"): its empty state, then
// sessions sent through POST /ingest/sessions (one crashed) shown per release, newest first,
// with the crash-free rates, adoption and change the read API answers; reached from another
// tab with the time range kept; on a phone's 390x844 in dark mode, no wider than the screen.

const percent = (share: number) => new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 2 }).format(share);
const [older, newer] = DEMO_SESSIONS;
const crashFree = (r: (typeof DEMO_SESSIONS)[number]) => 1 - r.crashed / r.sessions;

describe.skipIf(!browserAvailable())(`releases page in Chromium${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  let project: { id: string; key: string };
  const at = (path: string) => `/projects/${project.id}${path}`;

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url, { viewport: { width: 1440, height: 900 } });
    await b.page.goto('/');
    await b.page.waitForURL('**/setup');
    await fillSetupForm(b.page, dt.setupCode!.code, OWNER.username, OWNER.password);
    await b.page.waitForURL('**/projects');
    project = await createProjectInUi(b.page, 'shop');
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  it('says so when no session has arrived', async () => {
    await b.page.goto(at('/releases?range=1h'));
    await b.page.getByTestId('releases-empty').waitFor();
    expect(await b.page.getByTestId('releases-table').count()).toBe(0);
  });

  it('shows each release newest first with its crash-free rates, adoption and change', async () => {
    await sendDemoSessions(dt.url, project.key);
    // Stored a moment after the 200: the read API answers both releases first.
    const health = async () => {
      const r = await fetch(`${dt.url}/api/projects/${project.id}/releases/health`, { headers: { authorization: `Bearer ${dt.operatorToken}` } });
      return ((await r.json()) as { releases: Array<{ release: string; sessions: number; crashed: number }> }).releases;
    };
    await expect
      .poll(async () => (await health()).map((r) => `${r.release}:${r.sessions}:${r.crashed}`), { timeout: 20_000 })
      .toEqual([newer, older].map((r) => `${r.release}:${r.sessions}:${r.crashed}`));

    const { page } = b;
    await page.goto(at('/errors?range=1h'));
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Releases', exact: true }).click();
    await page.getByTestId('release-row').first().waitFor();
    expect(new URL(page.url()).searchParams.get('range')).toBe('1h');
    expect(await page.getByTestId('release-row').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.release))).toEqual([newer.release, older.release]);
    const cell = (release: string, testId: string) => page.locator(`[data-release="${release}"]`).getByTestId(testId).textContent();
    expect(await cell(newer.release, 'crash-free-sessions')).toBe(percent(crashFree(newer)));
    expect(await cell(newer.release, 'crash-free-users')).toBe(percent(crashFree(newer))); // one user per session
    expect(await cell(older.release, 'crash-free-sessions')).toBe(percent(1));
    expect(await cell(newer.release, 'adoption')).toBe(percent(newer.sessions / (newer.sessions + older.sessions)));
    const change = 100 * (crashFree(newer) - crashFree(older));
    expect(await cell(newer.release, 'release-change')).toBe(`−${Math.abs(change).toFixed(2)} pp`);
    const all = 1 - (newer.crashed + older.crashed) / (newer.sessions + older.sessions);
    expect(await page.getByTestId('releases-crash-free').textContent()).toBe(percent(all));
    expect(await horizontalOverflow(page)).toBe(0);
    expect(b.pageErrors).toEqual([]);
  }, 60_000);

  it('fits a phone (390x844) in dark mode', async () => {
    const phone = await openBrowser(dt.url, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    try {
      const { page } = phone;
      await logIn(page, at('/releases?range=1h'));
      await page.getByTestId('release-row').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await horizontalOverflow(page)).toBe(0);
      const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      expect(background).not.toBe('rgb(255, 255, 255)');
      expect(phone.pageErrors).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 60_000);
});
