import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, NO_BROWSER_REASON, openBrowser, stackThrownOnClick, screenshot, type BrowserSession } from '../../services/dashboard/test/support/browser.ts';
import { fillSetupForm, ingest, startDashboard } from '../../services/dashboard/test/support/dashboard.ts';
import { NEXT_APP_DIR, prepareNextApp, startNextApp, type NextServer } from '../support/next-app.ts';
import { runCli } from '../support/processes.ts';

// Source maps end to end (docs/source-maps.md): a real production build of the Next.js fixture
// app, its checkout page throwing in Chromium, the minified stack Chromium reports sent as an
// error of release "r1" from two deploys (two servers, two origins), the build's maps uploaded
// with the CLI using an upload token the CLI created (the project's API key is refused), and the
// dashboard in Chromium showing the original lines.
const browser = browserAvailable();

describe.skipIf(!browser)(`source maps: a minified Next.js stack shown at its source${browser ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let deploys: NextServer[] = [];
  let b: BrowserSession;
  const stacks: string[] = [];

  beforeAll(async () => {
    await prepareNextApp();
    deploys = [await startNextApp({}), await startNextApp({})];
    dt = await startDashboard();
    b = await openBrowser(dt.url);
  }, 600_000);
  afterAll(async () => {
    await b?.close();
    await Promise.all(deploys.map((d) => d.stop()));
    await dt?.close();
  });

  it('the same error from two deploys of one release is one group', async () => {
    for (const d of deploys) stacks.push(await stackThrownOnClick(b, `${d.url}/checkout`, 'Pay'));
    expect(stacks[0]).toMatch(/\/_next\/static\/chunks\/[^\s)]+\.js:\d+:\d+/);
    expect(stacks[0]).not.toContain('page.tsx'); // minified: the source is not in it
    const key = dt.firstProject!.apiKey;
    const sent = [];
    for (const s of stacks) {
      const r = await ingest(dt.url, key, 'errors', {
        service: 'shop-web',
        environment: 'production',
        release: 'r1',
        error_message: s.split('\n')[0].replace(/^\w+: /, ''),
        stack_trace: s,
      });
      expect(r.status).toBe(200);
      sent.push(r.body.fingerprint);
    }
    expect(new Set(stacks.map((s) => s.split('\n')[1])).size).toBe(2); // the frames name two origins
    expect(sent[1]).toBe(sent[0]);
  });

  it('the CLI uploads the build maps with an upload token; the API key may not', async () => {
    const id = dt.firstProject!.id;
    const made = await runCli(['upload-token', 'create', id, 'ci', '--api', dt.url, '--token', dt.operatorToken, '--json']);
    expect(made.code, made.stderr).toBe(0);
    const { token } = JSON.parse(made.stdout) as { token: string };
    expect(token).toMatch(/^dtu_[0-9a-f]{40}$/);
    const out = await runCli(['sourcemaps', 'upload', id, NEXT_APP_DIR, '--release', 'r1', '--api', dt.url, '--token', token, '--json']);
    expect(out.code, out.stderr).toBe(0);
    const r = JSON.parse(out.stdout);
    expect(r.uploaded.length).toBeGreaterThan(0);
    expect(r.uploaded.every((u: { url: string }) => u.url.startsWith('~/_next/static/'))).toBe(true);
    // The API key ships in browsers: it ingests and nothing else.
    const withKey = await runCli(['sourcemaps', 'upload', id, NEXT_APP_DIR, '--release', 'r1', '--api', dt.url, '--token', dt.firstProject!.apiKey]);
    expect(withKey.code).toBe(1);
    expect(withKey.stderr).toContain('401');
  }, 120_000);

  it('the dashboard in Chromium shows the original source lines', async () => {
    const { page } = b;
    await page.goto('/');
    await page.waitForURL('**/setup');
    await fillSetupForm(page, dt.setupCode!.code, 'owner', 'correct horse battery');
    await page.waitForURL('**/projects');
    const group = await fetch(`${dt.url}/api/projects/${dt.firstProject!.id}/error-groups/triage?status=all`, {
      headers: { authorization: `Bearer ${dt.operatorToken}` },
    });
    const { groups } = (await group.json()) as { groups: Array<{ fingerprint: string; count: number }> };
    expect(groups).toHaveLength(1);
    expect(groups[0].count).toBe(2);
    await page.goto(`/projects/${dt.firstProject!.id}/errors/${groups[0].fingerprint}`);
    const stack = page.getByTestId('symbolicated-stack');
    await stack.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('original-location').first().textContent()).toContain('app/checkout/page.tsx');
    await expect.poll(() => stack.getByTestId('source-line').first().textContent()).toContain('cart.items!.reduce');
    await screenshot(page, 'error-group-source-maps');
  }, 60_000);
});
