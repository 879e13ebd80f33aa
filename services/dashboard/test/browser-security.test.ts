import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable, NO_BROWSER_REASON, openBrowser, reloadUntilVisible, screenshot, type BrowserSession } from './support/browser.ts';
import { createProjectInUi, fillAuthForm, fillSetupForm, ingest, startDashboard } from './support/dashboard.ts';

// What an attacker tries against the dashboard, in real Chromium: markup and script in
// telemetry, mutating requests without the CSRF token, and reading another project.

const XSS_LOG = '<img src=x onerror="window.__xss=1;alert(1)">log-payload';
const XSS_SCRIPT = '<script>window.__xss=2</script>script-payload';
const XSS_META = '"><svg onload="window.__xss=3;alert(3)">meta-payload';
const XSS_ERROR = '<iframe src="javascript:alert(4)"></iframe><b onmouseover=alert(5)>error-payload</b>';

/** A mutating call from inside the page, as the page's own script could make it. */
function pageFetch(page: Page, path: string, init: { method: string; body?: unknown; csrf?: string | 'fetch' }) {
  return page.evaluate(
    async ({ path, init }) => {
      const headers: Record<string, string> = init.body === undefined ? {} : { 'content-type': 'application/json' };
      if (init.csrf === 'fetch') headers['x-csrf-token'] = (await (await fetch('/auth/me')).json()).csrf_token;
      else if (init.csrf) headers['x-csrf-token'] = init.csrf;
      const res = await fetch(path, { method: init.method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
      return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.json().catch(() => null) };
    },
    { path, init },
  );
}

const pageGet = (page: Page, path: string) =>
  page.evaluate(async (path) => {
    const res = await fetch(path);
    return { status: res.status, body: await res.json().catch(() => null) };
  }, path);

describe.skipIf(!browserAvailable())(`dashboard security in Chromium${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let owner: BrowserSession;
  let project: { id: string; key: string };
  const dialogs: string[] = [];

  beforeAll(async () => {
    dt = await startDashboard();
    owner = await openBrowser(dt.url);
    owner.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await owner.page.goto('/setup');
    await fillSetupForm(owner.page, dt.setupCode!.code, 'root', 'owner-password-1');
    await owner.page.waitForURL('**/projects');
    project = await createProjectInUi(owner.page, 'secret-project');
  });
  afterAll(async () => {
    await owner?.close();
    await dt?.close();
  });

  it('renders HTML and script in log messages, metadata and error messages as inert text', async () => {
    const { page } = owner;
    const logs = await ingest(dt.url, project.key, 'logs', {
      service: '<i>svc</i>',
      logs: [
        { level: 'error', message: XSS_LOG, metadata: { note: XSS_META } },
        { level: 'info', message: XSS_SCRIPT },
      ],
    });
    expect(logs.status).toBe(200);
    const err = await ingest(dt.url, project.key, 'errors', {
      error_message: XSS_ERROR,
      stack_trace: `Error: ${XSS_ERROR}\n    at x (y.js:1:1)`,
      context: { html: XSS_META },
    });
    expect(err.status).toBe(200);

    await page.goto(`/projects/${project.id}/logs`);
    await reloadUntilVisible(page, XSS_LOG);
    await page.getByText(XSS_SCRIPT).waitFor();
    await page.getByText(XSS_LOG).click();
    await page.getByText(`"note": ${JSON.stringify(XSS_META)}`).waitFor();
    await screenshot(page, 'security-inert-logs');
    const injected = () =>
      page.evaluate(() => ({
        flag: (window as unknown as { __xss?: number }).__xss ?? null,
        elements: document.querySelectorAll('#app img, #app svg[onload], #app script, #app iframe, #app b[onmouseover], #app i').length,
      }));
    expect(await injected()).toEqual({ flag: null, elements: 0 });

    await page.goto(`/projects/${project.id}/errors`);
    await reloadUntilVisible(page, /error-payload/);
    expect(await page.getByTestId('error-group-row').first().textContent()).toContain('<b onmouseover=alert(5)>error-payload</b>');
    await page.getByTestId('error-group-row').first().getByRole('link').click();
    await page.getByTestId('error-heading').waitFor();
    expect(await page.getByTestId('error-heading').textContent()).toContain('<iframe src="javascript:alert(4)"></iframe>');
    await page.getByText(`"html": ${JSON.stringify(XSS_META)}`).waitFor();
    expect(await injected()).toEqual({ flag: null, elements: 0 });
    await page.waitForTimeout(300);
    expect(dialogs).toEqual([]);
    expect(owner.pageErrors).toEqual([]);
  }, 60_000);

  it('serves UI pages with a strict Content-Security-Policy', async () => {
    const res = await fetch(`${dt.url}/projects`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a mutating request without the CSRF token (403 JSON), also from the logged-in page', async () => {
    const { page } = owner;
    await page.goto('/projects');
    const none = await pageFetch(page, '/api/admin/projects', { method: 'POST', body: { name: 'csrf-none' } });
    expect(none.status).toBe(403);
    expect(none.type).toContain('application/json');
    expect(none.body).toEqual({ error: 'Missing or invalid CSRF token' });
    const wrong = await pageFetch(page, `/api/admin/projects/${project.id}/revoke-key`, { method: 'POST', csrf: 'forged-token-value' });
    expect(wrong.status).toBe(403);
    const logout = await pageFetch(page, '/auth/logout', { method: 'POST' });
    expect(logout.status).toBe(403);
    // Nothing changed: the key still works, no project was created.
    expect((await ingest(dt.url, project.key, 'logs', { logs: [{ level: 'info', message: 'still valid' }] })).status).toBe(200);
    const list = await pageGet(page, '/api/admin/projects');
    expect((list.body as { projects: Array<{ name: string }> }).projects.map((p) => p.name)).not.toContain('csrf-none');
    // The same request with the session's token goes through.
    const ok = await pageFetch(page, '/api/admin/projects', { method: 'POST', body: { name: 'csrf-ok' }, csrf: 'fetch' });
    expect(ok.status).toBe(201);
  }, 60_000);

  it('a user cannot read or change another project, through the UI or the API', async () => {
    // The owner adds a user through the Users page.
    await owner.page.goto('/users');
    await owner.page.getByLabel('Username').fill('mallory');
    await owner.page.getByLabel('Initial password').fill('mallory-password');
    await owner.page.getByRole('button', { name: 'Add user' }).click();
    await owner.page.getByTestId('users-table').getByRole('cell', { name: 'mallory', exact: true }).waitFor();

    const mallory = await openBrowser(dt.url);
    try {
      const { page } = mallory;
      await page.goto('/login');
      await fillAuthForm(page, 'mallory', 'mallory-password', 'Log in');
      await page.waitForURL('**/projects');
      const own = await createProjectInUi(page, 'mallory-project');
      await page.goto('/projects');
      await page.getByTestId('projects-table').waitFor();
      const listed = await page.getByTestId('projects-table').textContent();
      expect(listed).toContain('mallory-project');
      expect(listed).not.toContain('secret-project');

      // UI: another project's pages answer "not found".
      for (const tab of ['logs', 'errors', 'settings']) {
        await page.goto(`/projects/${project.id}/${tab}`);
        await page.getByTestId('not-found').waitFor();
        expect(await page.content()).not.toContain(XSS_LOG.slice(-11));
      }
      await screenshot(page, 'security-other-project');

      // API, with mallory's session: 404 for every read and write.
      for (const path of ['logs', 'errors', 'error-groups', 'traces', 'spans', 'llm-usage', 'ingestion', 'llm-breakdown']) {
        expect((await pageGet(page, `/api/projects/${project.id}/${path}`)).status, path).toBe(404);
      }
      expect((await pageGet(page, `/api/admin/projects/${project.id}`)).status).toBe(404);
      expect((await pageGet(page, `/auth/projects/${project.id}/members`)).status).toBe(404);
      expect((await pageFetch(page, `/api/admin/projects/${project.id}/revoke-key`, { method: 'POST', csrf: 'fetch' })).status).toBe(404);
      expect(
        (await pageFetch(page, `/api/admin/projects/${project.id}/allowed-origins`, { method: 'PUT', body: { origins: ['evil.test'] }, csrf: 'fetch' })).status,
      ).toBe(404);
      // Owner-only routes.
      expect((await pageGet(page, '/auth/users')).status).toBe(403);
      expect((await pageFetch(page, `/auth/projects/${project.id}/members`, { method: 'POST', body: { username: 'mallory' }, csrf: 'fetch' })).status).toBe(403);
      expect((await ingest(dt.url, project.key, 'logs', { logs: [{ level: 'info', message: 'key untouched' }] })).status).toBe(200);

      // Her own project is hers; the owner sees it too.
      expect((await pageGet(page, `/api/projects/${own.id}/logs`)).status).toBe(200);
      expect((await pageGet(owner.page, `/api/projects/${own.id}/logs`)).status).toBe(200);

      // Once the owner grants membership (Settings -> Members), the project opens for her.
      await owner.page.goto(`/projects/${project.id}/settings?tab=members`);
      await owner.page.getByLabel('Add a user by username').fill('mallory');
      await owner.page.getByRole('button', { name: 'Add member' }).click();
      await owner.page.getByTestId('members-table').getByText('mallory').waitFor();
      expect((await pageGet(page, `/api/projects/${project.id}/logs`)).status).toBe(200);
      await page.goto(`/projects/${project.id}/logs`);
      await page.getByTestId('project-name').getByText('secret-project').waitFor();
    } finally {
      await mallory.close();
    }
  }, 90_000);

  it('a viewer reads its projects and changes nothing, through the UI or the API', async () => {
    await owner.page.goto('/users');
    await owner.page.getByLabel('Username').fill('vera');
    await owner.page.getByLabel('Initial password').fill('vera-password-1');
    await owner.page.locator('select[name="new-role"]').selectOption('viewer');
    await owner.page.getByRole('button', { name: 'Add user' }).click();
    await owner.page.getByTestId('users-table').getByRole('cell', { name: 'vera', exact: true }).waitFor();
    await screenshot(owner.page, 'users');
    await owner.page.goto(`/projects/${project.id}/settings?tab=members`);
    await owner.page.getByLabel('Add a user by username').fill('vera');
    await owner.page.getByRole('button', { name: 'Add member' }).click();
    await owner.page.getByTestId('members-table').getByText('vera').waitFor();

    const vera = await openBrowser(dt.url);
    try {
      const { page } = vera;
      await page.goto('/login');
      await fillAuthForm(page, 'vera', 'vera-password-1', 'Log in');
      await page.waitForURL('**/projects');
      await expect.poll(() => page.getByTestId('whoami').textContent()).toContain('vera (viewer)');
      await page.getByText('Your account can read these projects; it cannot change them.').waitFor();
      expect(await page.getByRole('button', { name: 'Create project' }).count()).toBe(0);
      await page.goto(`/projects/${project.id}/logs`);
      await page.getByTestId('project-name').getByText('secret-project').waitFor();
      expect((await pageGet(page, `/api/projects/${project.id}/logs`)).status).toBe(200);
      // Every write, with a valid CSRF token: 403, and nothing changes.
      const readOnly = { error: 'This account can only read (viewer)' };
      expect(await pageFetch(page, '/api/admin/projects', { method: 'POST', body: { name: 'vera-project' }, csrf: 'fetch' })).toMatchObject({
        status: 403,
        body: readOnly,
      });
      expect(await pageFetch(page, `/api/admin/projects/${project.id}/revoke-key`, { method: 'POST', csrf: 'fetch' })).toMatchObject({ status: 403, body: readOnly });
      expect(await pageFetch(page, `/api/admin/projects/${project.id}/rate-limit`, { method: 'PUT', body: { rate_limit_per_minute: 1 }, csrf: 'fetch' })).toMatchObject({
        status: 403,
        body: readOnly,
      });
      expect((await ingest(dt.url, project.key, 'logs', { logs: [{ level: 'info', message: 'key untouched by the viewer' }] })).status).toBe(200);
    } finally {
      await vera.close();
    }
  }, 90_000);
});
