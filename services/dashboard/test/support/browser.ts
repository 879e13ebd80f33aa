import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM } from '../../../../test/support/chromium.ts';
import { STACK_REQUIRED } from '../../../../test/support/stack.ts';

// Headless Debian Chromium driven by playwright-core: the run's one browser
// (test/support/browser-server.ts), a fresh context per session. CI installs the browser
// (deploy/scripts/browser.sh install); when it is missing the browser suites skip, except
// under DEVTRAIL_REQUIRE_STACK=1, where they fail loudly.

export { CHROMIUM };
export const NO_BROWSER_REASON = `no Chromium at ${CHROMIUM} (deploy/scripts/browser.sh install)`;
// Every run saves its screenshots under .devtrail/ (ignored); DEVTRAIL_UPDATE_SCREENSHOTS=1
// writes them to docs/screenshots/ instead, to refresh the committed ones.
export const SCREENSHOTS = fileURLToPath(
  new URL(process.env.DEVTRAIL_UPDATE_SCREENSHOTS === '1' ? '../../../../docs/screenshots/' : '../../../../.devtrail/test-results/screenshots/', import.meta.url),
);

export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (STACK_REQUIRED) throw new Error(`DEVTRAIL_REQUIRE_STACK=1 but ${NO_BROWSER_REASON}`);
  return false;
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Errors thrown in the page or CSP violations reported on its console. */
  pageErrors: string[];
  close(): Promise<void>;
}

/** What the person's browser is like: its language (numbers), zone, light or dark, window. */
export interface BrowserOptions {
  locale?: string;
  timezoneId?: string;
  colorScheme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
}

export async function openBrowser(baseUrl: string, opts: BrowserOptions = {}): Promise<BrowserSession> {
  const ws = inject('chromiumWs');
  if (!ws) throw new Error(`no Chromium server for this run (the in-process lane's global setup starts it): ${NO_BROWSER_REASON}`);
  const browser = await chromium.connect(ws);
  const context = await browser.newContext({
    locale: opts.locale ?? 'en-US',
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
    colorScheme: opts.colorScheme ?? 'light',
    viewport: opts.viewport ?? { width: 1360, height: 860 },
    baseURL: baseUrl,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) pageErrors.push(m.text());
  });
  return {
    context,
    page,
    pageErrors,
    async close() {
      await context.close();
      await browser.close(); // the connection only: the run's browser stays for the other sessions
    },
  };
}

export async function screenshot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: opts.fullPage ?? true });
}

/** How much wider than the window the page is (0: no horizontal scroll). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Reloads the page until the text shows (data is stored about a second after the 200). */
export async function reloadUntilVisible(page: Page, text: string | RegExp, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await page
      .getByText(text)
      .first()
      .waitFor({ state: 'visible', timeout: 3000 })
      .then(
        () => true,
        () => false,
      );
    if (found) return;
    if (Date.now() > deadline) throw new Error(`"${String(text)}" did not appear within ${timeoutMs} ms on ${page.url()}`);
    await page.reload();
  }
}

/** The stack of the error a page throws when its button is clicked, from a new tab of the session. */
export async function stackThrownOnClick(session: BrowserSession, url: string, button: string): Promise<string> {
  const page = await session.context.newPage();
  const thrown = new Promise<Error>((resolve) => page.once('pageerror', resolve));
  await page.goto(url);
  await page.getByRole('button', { name: button }).click();
  const err = await thrown;
  await page.close();
  return err.stack ?? '';
}
