import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable, horizontalOverflow, NO_BROWSER_REASON, openBrowser, reloadUntilVisible, screenshot, type BrowserSession } from './support/browser.ts';
import { startDashboard } from './support/dashboard.ts';
import { DEMO } from './support/demo-data.ts';
import { demoProject, logIn } from './support/demo-project.ts';
import { DEMO_SESSIONS, sendDemoSessions } from './support/demo-sessions.ts';

// Every page of the dashboard over the demo project, light and dark (the system's setting,
// which the page follows), saved as the screenshots of docs/dashboard.md
// (DEVTRAIL_UPDATE_SCREENSHOTS=1 writes them to docs/screenshots/). Each page must show its
// content, fit the window, and in dark mode be dark: light text on a dark background.

const luminance = (page: Page, selector: string, property: 'color' | 'backgroundColor') =>
  page
    .locator(selector)
    .first()
    .evaluate((e, prop) => {
      const [r, g, b] = (getComputedStyle(e)[prop as 'color'].match(/[\d.]+/g) ?? ['0', '0', '0']).map(Number);
      const lin = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    }, property);

describe.skipIf(!browserAvailable())(`screenshots of every page, light and dark${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  let project: Awaited<ReturnType<typeof demoProject>>;
  const at = (path: string) => `/projects/${project.id}${path}`;

  /** Both schemes of what the page shows now; `prepare` runs after each change of scheme. */
  async function both(name: string, prepare: () => Promise<void> = async () => {}, opts: { fullPage?: boolean } = {}) {
    const { page } = b;
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await prepare();
      await page.waitForTimeout(400); // charts redraw in the scheme's colours
      const body = await luminance(page, 'html', 'backgroundColor');
      const text = await luminance(page, 'html', 'color');
      if (scheme === 'dark') {
        expect(body, `${name}: dark background`).toBeLessThan(0.05);
        expect(text, `${name}: light text`).toBeGreaterThan(0.5);
      } else {
        expect(body, `${name}: light background`).toBeGreaterThan(0.8);
        expect(text, `${name}: dark text`).toBeLessThan(0.1);
      }
      expect(await horizontalOverflow(page), `${name} (${scheme}) fits the window`).toBe(0);
      await screenshot(page, scheme === 'light' ? name : `${name}-dark`, { fullPage: opts.fullPage ?? false });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
  const open = async (path: string, ready: string) => {
    await b.page.goto(path);
    await b.page.locator(ready).first().waitFor();
  };

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url);
    project = await demoProject(b.page, dt.url, dt.setupCode!.code, { beforeSetup: () => both('setup') });
    await sendDemoSessions(dt.url, project.key);
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  it('the projects and users pages', async () => {
    await open('/projects', '[data-testid=projects-table]');
    await both('projects');
    await open('/users', '[data-testid=users-table]');
    await both('users');
  }, 60_000);

  it('the logs explorer: the last 24 hours, a search with facets, highlights and surrounding lines, metadata columns and ranges', async () => {
    await open(at('/logs'), '[data-testid=log-row]');
    await b.page.getByTestId('log-volume-chart').locator('canvas').first().waitFor();
    await both('logs');
    await open(at(`/logs?range=1h&q=${encodeURIComponent('timeout -service:auth')}`), 'mark');
    await b.page.getByTestId('log-row').first().click();
    await b.page.getByTestId('show-surrounding').click();
    await b.page.getByTestId('surrounding-anchor').waitFor();
    await both('logs-search', async () => {}, { fullPage: true });
    // Columns for two metadata keys, and a numeric key's facet as ranges.
    await open(at('/logs?range=1h&level=error&cols=user_id,region'), '[data-testid=column-cell]');
    await b.page.getByTestId('facet-metadata.duration_ms').locator('summary').click();
    await b.page.getByTestId('facet-range').first().waitFor();
    await both('logs-columns', async () => {}, { fullPage: true });
  }, 60_000);

  it('errors, an error group, traces, a trace, releases, LLM usage, ingestion', async () => {
    await open(at('/errors'), '[data-testid=error-group-row]');
    await both('errors');
    await b.page.getByTestId('error-group-row').filter({ hasText: 'TimeoutError' }).getByRole('link').click();
    await b.page.getByTestId('stack-trace').waitFor();
    await both('error-group');
    await open(at('/traces'), '[data-testid=trace-row]');
    await both('traces');
    await open(at(`/traces/${DEMO.traceId}`), '[data-testid=span-row]');
    await b.page.getByTestId('span-row').filter({ hasText: 'payment.charge' }).click();
    await both('trace');
    await b.page.goto(at('/releases'));
    await reloadUntilVisible(b.page, DEMO_SESSIONS[1].release, 20_000);
    await both('releases');
    await open(at('/llm'), '[data-testid=llm-call-row]');
    await b.page.getByTestId('llm-latency-chart').locator('canvas').first().waitFor();
    await both('llm-usage', async () => {}, { fullPage: true });
    await open(at('/ingestion'), '[data-testid=consumers-table]');
    await both('ingestion');
  }, 90_000);

  it('the settings tabs, the origins form refusing a line, and the not-found page', async () => {
    await open(at('/settings'), '[data-testid=key-table]');
    await both('settings-keys');
    await open(at('/settings?tab=origins'), '[data-testid=origins-input]');
    await b.page.getByTestId('origins-input').fill('shop.example.com\nnot a domain!!');
    await b.page.getByTestId('save-origins').click();
    await b.page.getByTestId('origin-errors').waitFor();
    await both('settings-origins');
    await open(at('/settings?tab=rate-limit'), 'input[name=rate-limit]');
    await both('settings-rate-limit');
    await open(at('/settings?tab=drain'), '[data-testid=drain-url]');
    await both('settings-drain');
    await open(at('/settings?tab=members'), '[data-testid=members-table]');
    await both('settings-members');
    await open('/no/such/page', '[data-testid=not-found]');
    await both('not-found');
  }, 60_000);

  it('the login page, and the logs and a trace on a phone', async () => {
    const phone = await openBrowser(dt.url, { viewport: { width: 390, height: 844 } });
    try {
      const main = b;
      b = phone;
      await phone.page.goto('/login');
      await phone.page.getByLabel('Username').waitFor();
      await both('login');
      await logIn(phone.page, at('/logs?cols=user_id'));
      await phone.page.getByTestId('log-row').first().waitFor();
      await both('logs-phone');
      await open(at(`/traces/${DEMO.traceId}`), '[data-testid=span-row]');
      await both('trace-phone');
      expect(phone.pageErrors).toEqual([]);
      b = main;
    } finally {
      await phone.close();
    }
  }, 90_000);

  it('raised no script error and no CSP violation', () => {
    expect(b.pageErrors).toEqual([]);
  });
});
