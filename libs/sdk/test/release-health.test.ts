// Release health end to end (docs/sdk.md#release-health, docs/api.md#release-health): sessions
// from Node processes (the built package, each its own process) and pages in Chromium (the
// script-tag build), sent to the REAL receiver (devtrail's embedded process) and read back per
// release through the read API. Release r1: a process that exits, a process that crashes (an
// uncaught exception) and a page that is left; r2, first seen after it: a process with a
// handled error and a page whose uncaught error crashes it.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, NO_BROWSER_REASON, openBrowser, type BrowserSession } from '../../../services/dashboard/test/support/browser.ts';
import { startEmbeddedProcess, type EmbeddedProcess } from '../../../test/support/embedded-process.ts';
import { ensureBuilt, pkgDir, runScript } from './helpers/built-package.js';

const hasBrowser = browserAvailable();
let receiver: EmbeddedProcess;
let pages: Server;
let pagesUrl: string;
let browser: BrowserSession | undefined;

const PAGE = (receiverUrl: string, key: string, q: URLSearchParams) => `<!doctype html><html><head><script src="/devtrail.min.js"></script></head><body><script>
  const client = devtrail.createClient({ apiKey: '${key}', baseUrl: '${receiverUrl}', service: 'web', release: '${q.get('release')}', browserTracing: false });
  client.setUser('${q.get('user')}');
  ${q.get('crash') ? "setTimeout(() => { window.crashing = true; throw new Error('page crashed'); });" : ''}
</script></body></html>`;

beforeAll(async () => {
  await ensureBuilt();
  receiver = await startEmbeddedProcess();
  const bundle = readFileSync(join(pkgDir, 'dist/browser/devtrail.min.js'));
  pages = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/devtrail.min.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    res.writeHead(200, { 'content-type': 'text/html' }).end(url.pathname === '/left' ? '<p>left</p>' : PAGE(receiver.url, receiver.project.key, url.searchParams));
  });
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
  pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  if (hasBrowser) browser = await openBrowser(pagesUrl);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((r) => (pages ? pages.close(() => r()) : r()));
  await receiver?.close();
}, 60_000);

/** A Node process with the built package: its session is the process's. */
function nodeProcess(release: string, user: string, body: string) {
  return runScript(
    `const { createClient } = require('@devtrail/sdk');
const devtrail = createClient({ apiKey: process.env.KEY, baseUrl: process.env.URL, service: 'api', release: '${release}' });
devtrail.setUser('${user}');
${body}`,
    { KEY: receiver.project.key, URL: receiver.url },
  );
}

async function page(query: string): Promise<void> {
  const { page: p } = browser!;
  await p.goto(`${pagesUrl}/?${query}`);
  await p.waitForLoadState('load');
  if (query.includes('crash')) await p.waitForFunction(() => (window as any).crashing === true); // the uncaught error was thrown
  await p.goto(`${pagesUrl}/left`); // the page's session ends with it
}

async function health(): Promise<any[]> {
  const from = new Date(Date.now() - 3600_000).toISOString();
  const res = await fetch(`${receiver.url}/api/projects/${receiver.project.id}/releases/health?from=${from}`, {
    headers: { authorization: `Bearer ${receiver.operatorToken}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { releases: any[] }).releases;
}

describe('release health from Node processes and pages', () => {
  it(`gives each release its crash-free sessions and users, adoption and change${hasBrowser ? '' : ` (pages skipped: ${NO_BROWSER_REASON})`}`, async () => {
    const exited = await nodeProcess('r1', 'u-a', `devtrail.logger.info('working');\ndevtrail.close();`);
    expect(exited.code, exited.stderr).toBe(0);
    const crashed = await nodeProcess('r1', 'u-b', `setTimeout(() => { throw new Error('process crashed'); }, 10);`);
    expect(crashed.code).toBe(1);
    if (browser) await page('release=r1&user=u-c');
    // r2 is first seen after r1.
    await new Promise((r) => setTimeout(r, 20));
    const errored = await nodeProcess('r2', 'u-d', `devtrail.captureError(new Error('handled'));\ndevtrail.close();`);
    expect(errored.code, errored.stderr).toBe(0);
    if (browser) await page('release=r2&user=u-e&crash=1');

    const perRelease = hasBrowser ? { r1: 3, r2: 2 } : { r1: 2, r2: 1 };
    await expect.poll(async () => Object.fromEntries((await health()).map((r) => [r.release, r.sessions])), { timeout: 60_000, interval: 500 }).toEqual(perRelease);
    const [r2, r1] = await health();
    if (hasBrowser) {
      expect(r1).toMatchObject({ release: 'r1', sessions: 3, crashed: 1, errored: 0, users: 3, crashed_users: 1, crash_free_change: null });
      expect(r1.crash_free_sessions).toBeCloseTo(2 / 3, 6);
      expect(r1.crash_free_users).toBeCloseTo(2 / 3, 6);
      expect(r1.adoption).toBeCloseTo(3 / 5, 6);
      expect(r2).toMatchObject({ release: 'r2', sessions: 2, crashed: 1, errored: 1, users: 2, crashed_users: 1 });
      expect(r2.crash_free_sessions).toBeCloseTo(1 / 2, 6);
      expect(r2.crash_free_users).toBeCloseTo(1 / 2, 6);
      expect(r2.adoption).toBeCloseTo(2 / 5, 6);
      expect(r2.crash_free_change).toBeCloseTo(1 / 2 - 2 / 3, 6);
    } else {
      expect(r1).toMatchObject({ release: 'r1', sessions: 2, crashed: 1, crash_free_sessions: 0.5, crash_free_users: 0.5 });
      expect(r2).toMatchObject({ release: 'r2', sessions: 1, crashed: 0, errored: 1, crash_free_sessions: 1, crash_free_change: 0.5 });
    }
  }, 180_000);
});
