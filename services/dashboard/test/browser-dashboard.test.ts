import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, NO_BROWSER_REASON, openBrowser, reloadUntilVisible, screenshot, type BrowserSession } from './support/browser.ts';
import { createProjectInUi, fillAuthForm, fillSetupForm, ingest, startDashboard } from './support/dashboard.ts';

// The dashboard as a person uses it, in real headless Chromium against the embedded
// process: owner setup, login, a project and its key, every kind of telemetry on its
// page, key revocation through the confirmation dialog, and allowed origins. The pages'
// screenshots are browser-screenshots.test.ts's; this suite saves the revocation's two.

const OWNER = { username: 'owner', password: 'correct horse battery' };
const TRACE_ID = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

describe.skipIf(!browserAvailable())(`dashboard in Chromium${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  let project: { id: string; key: string };
  const at = (path: string) => `/projects/${project.id}${path}`;

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url);
  });
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  it('first visit creates the owner account, who can log out and log in again', async () => {
    const { page } = b;
    await page.goto('/');
    await page.waitForURL('**/setup');
    await screenshot(page, 'setup');
    await fillSetupForm(page, dt.setupCode!.code, OWNER.username, OWNER.password);
    await page.waitForURL('**/projects');
    await expect.poll(() => page.getByTestId('whoami').textContent()).toContain('owner');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await fillAuthForm(page, OWNER.username, 'wrong password', 'Log in');
    await page.getByRole('alert').filter({ hasText: 'Invalid username or password' }).waitFor();
    await fillAuthForm(page, OWNER.username, OWNER.password, 'Log in');
    await page.waitForURL('**/projects');
    const cookie = (await b.context.cookies()).find((c) => c.name === '__Host-dt_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.secure).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
  }, 60_000);

  it('creates a project and shows its key once, with a copy button and snippets', async () => {
    const { page } = b;
    project = await createProjectInUi(page, 'shop');
    expect(project.key).toMatch(/^dt_[0-9a-f]{24}$/);
    await page.getByTestId('copy-key').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(project.key);
    expect(await page.getByTestId('snippet').textContent()).toContain('@devtrail/sdk');
    await page.getByRole('button', { name: 'curl' }).click();
    expect(await page.getByTestId('snippet').textContent()).toContain(`Authorization: Bearer ${project.key}`);
    // The key is not shown again: a reload lists the project with its prefix only.
    await page.reload();
    await page.getByTestId('projects-table').waitFor();
    expect(await page.content()).not.toContain(project.key);
    expect(await page.getByTestId('projects-table').textContent()).toContain(`${project.key.slice(0, 7)}…`);
  }, 60_000);

  it('shows sent logs in the explorer (filters, expanded metadata, link to the trace)', async () => {
    const { page } = b;
    const now = Date.now();
    const logs = [
      {
        level: 'info',
        message: 'checkout started',
        trace_id: TRACE_ID,
        span_id: 'span-root',
        metadata: { cart_id: 'c-42', items: 3 },
        timestamp: new Date(now - 3000).toISOString(),
      },
      { level: 'warn', message: 'payment slow', trace_id: TRACE_ID, span_id: 'span-pay', metadata: { ms: 812 }, timestamp: new Date(now - 2000).toISOString() },
      { level: 'error', message: 'inventory service unreachable', metadata: { host: 'inv-1' }, timestamp: new Date(now - 1000).toISOString() },
    ];
    const r = await ingest(dt.url, project.key, 'logs', { service: 'checkout', environment: 'production', release: 'v1.4.2', logs });
    expect(r).toEqual({ status: 200, body: { ok: true, count: 3 } });
    const started = Date.now();
    await page.goto(at('/logs'));
    await page.getByTestId('live-tail').check();
    await page.getByText('inventory service unreachable').waitFor({ timeout: 5000 });
    expect(Date.now() - started).toBeLessThan(5000 + 1000);
    await page.getByText('checkout started').waitFor();
    // Newest first.
    const messages = await page.locator('[data-testid=log-row] .message').allTextContents();
    expect(messages.indexOf('inventory service unreachable')).toBeLessThan(messages.indexOf('checkout started'));
    // Level, then text (the explorer's own suites: browser-explorer.test.ts).
    await page.getByTestId('log-search').fill('level:warn');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.locator('[data-testid=log-row]').count()).toBe(1);
    await page.getByTestId('log-search').fill('checkout');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.locator('[data-testid=log-row]').count()).toBe(1);
    await page.getByText('checkout started').click();
    await page.getByText('"cart_id": "c-42"').waitFor();
    expect(await page.getByTestId('log-trace-link').getAttribute('href')).toBe(at(`/traces/${TRACE_ID}`));
  }, 60_000);

  it('pages through many logs with infinite scroll', async () => {
    const { page } = b;
    const logs = Array.from({ length: 250 }, (_, i) => ({
      level: 'debug',
      message: `bulk line ${String(i).padStart(3, '0')}`,
      timestamp: new Date(Date.now() - 60_000 + i).toISOString(),
    }));
    expect((await ingest(dt.url, project.key, 'logs', { service: 'bulk', logs })).status).toBe(200);
    await page.goto(at('/logs?service=bulk'));
    await reloadUntilVisible(page, 'bulk line 249');
    await expect.poll(() => page.locator('[data-testid=log-row]').count()).toBe(100);
    await page.getByTestId('logs-end').scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('[data-testid=log-row]').count()).toBeGreaterThanOrEqual(200);
    await page.getByTestId('logs-end').scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('[data-testid=log-row]').count(), { timeout: 10_000 }).toBe(250);
    await page.getByText('250 logs, end of range').waitFor();
    await page.getByText('bulk line 000').waitFor();
  }, 60_000);

  it('shows an error group with sparkline, and its page with stack, breadcrumbs, context and user', async () => {
    const { page } = b;
    const report = {
      service: 'checkout',
      release: 'v1.4.2',
      error_message: 'Cannot read properties of undefined (reading "total")',
      stack_trace: 'TypeError: Cannot read properties of undefined (reading "total")\n    at computeTotal (src/cart.ts:42:17)\n    at checkout (src/checkout.ts:88:5)',
      severity: 'high',
      user_id: 'user-1234',
      trace_id: TRACE_ID,
      context: { cart_id: 'c-42', coupon: 'SPRING' },
      breadcrumbs: [
        { type: 'navigation', message: 'opened /cart', timestamp: new Date(Date.now() - 5000).toISOString() },
        { type: 'ui', message: 'clicked Pay', timestamp: new Date(Date.now() - 2000).toISOString() },
      ],
    };
    const r1 = await ingest(dt.url, project.key, 'errors', report);
    const r2 = await ingest(dt.url, project.key, 'errors', { ...report, user_id: 'user-5678' });
    expect(r1.status).toBe(200);
    expect(r2.body.fingerprint).toBe(r1.body.fingerprint);
    await page.goto(at('/errors'));
    await reloadUntilVisible(page, /Cannot read properties of undefined/);
    const row = page.getByTestId('error-group-row').first();
    // Columns: select, error, state, activity, events, ...
    // Both reports stored: a loaded machine's consumer may take a few seconds for the second.
    await expect.poll(() => row.locator('td').nth(4).textContent(), { timeout: 20_000 }).toBe('2');
    expect(await row.locator('td').nth(2).textContent()).toBe('New');
    expect(await row.locator('.spark-bar').count()).toBeGreaterThan(0);
    expect(await row.textContent()).toContain('v1.4.2');
    await row.getByRole('link').click();
    // Its link carries the list's range (a default range widened to 7d when the reports landed late).
    await page.waitForURL(`**/errors/${r1.body.fingerprint}*`);
    await page.getByTestId('stack-trace').getByText('at computeTotal (src/cart.ts:42:17)').waitFor();
    await page.getByTestId('breadcrumbs').getByText('clicked Pay').waitFor();
    await page.getByText('"coupon": "SPRING"').waitFor();
    expect(['user-1234', 'user-5678']).toContain((await page.getByTestId('error-user').textContent())?.trim());
    expect(await page.getByTestId('occurrences').locator('tbody tr').count()).toBe(2);
  }, 60_000);

  it('shows traces and a trace waterfall with span metadata and the trace logs', async () => {
    const { page } = b;
    const t0 = Date.now() - 4000;
    const spans = [
      {
        span_id: 'span-root',
        parent_span_id: '',
        operation: 'POST /api/checkout',
        start_time: new Date(t0).toISOString(),
        duration_ms: 420,
        metadata: { 'http.status_code': 200 },
      },
      {
        span_id: 'span-db',
        parent_span_id: 'span-root',
        operation: 'SELECT cart',
        start_time: new Date(t0 + 20).toISOString(),
        duration_ms: 35,
        metadata: { 'db.system': 'postgresql' },
      },
      {
        span_id: 'span-pay',
        parent_span_id: 'span-root',
        operation: 'payment.charge',
        start_time: new Date(t0 + 80).toISOString(),
        duration_ms: 300,
        status: 'error',
        metadata: { provider: 'stripe' },
      },
    ];
    for (const s of spans) expect((await ingest(dt.url, project.key, 'traces', { service: 'checkout', trace_id: TRACE_ID, ...s })).status).toBe(200);
    await page.goto(at('/traces'));
    await reloadUntilVisible(page, 'POST /api/checkout');
    expect(await page.getByTestId('traces-table').textContent()).toContain('420 ms');
    await page.getByRole('link', { name: 'POST /api/checkout' }).click();
    await page.waitForURL(`**/traces/${TRACE_ID}`);
    await expect.poll(() => page.getByTestId('span-row').count(), { timeout: 5000 }).toBe(3);
    await page.getByTestId('span-row').filter({ hasText: 'payment.charge' }).click();
    await page.getByTestId('span-detail').getByText('"provider": "stripe"').waitFor();
    await page.getByTestId('trace-logs').getByText('payment slow').waitFor();
  }, 60_000);

  it('charts LLM cost and tokens by model and tabulates calls, tokens, cost and latency', async () => {
    const { page } = b;
    const records = [
      { model: 'gpt-4o', provider: 'openai', operation: 'chat', input_tokens: 1200, output_tokens: 300, cost_usd: 0.0105, latency_ms: 900 },
      { model: 'gpt-4o', provider: 'openai', operation: 'chat', input_tokens: 800, output_tokens: 200, cost_usd: 0.007, latency_ms: 1500 },
      { model: 'claude-3-5-sonnet', provider: 'anthropic', operation: 'chat', input_tokens: 2000, output_tokens: 500, cost_usd: 0.0135, latency_ms: 2100 },
      { model: 'text-embedding-3-small', provider: 'openai', operation: 'embedding', input_tokens: 5000, output_tokens: 0, cost_usd: 0.0001, latency_ms: 120 },
    ];
    for (const r of records) expect((await ingest(dt.url, project.key, 'llm', { service: 'assistant', ...r })).status).toBe(200);
    await page.goto(at('/llm'));
    await reloadUntilVisible(page, 'claude-3-5-sonnet');
    const table = await page.getByTestId('llm-table').textContent();
    expect(table).toContain('anthropic');
    expect(table).toContain('2,000');
    expect(await page.getByTestId('llm-total-cost').textContent()).toBe('$0.03');
    await page.getByTestId('llm-cost-chart').locator('.u-legend').getByText('claude-3-5-sonnet').waitFor();
    await page.getByTestId('llm-tokens-chart').locator('.u-legend').getByText('text-embedding-3-small').waitFor();
  }, 60_000);

  it('shows ingestion per minute and consumer lag', async () => {
    const { page } = b;
    await page.goto(at('/ingestion'));
    await page.getByTestId('consumers-table').getByText('logs-sink').waitFor();
    await expect.poll(() => page.getByTestId('ingested-log').textContent()).toBe('253');
    await page.getByTestId('ingestion-chart').locator('.u-legend').getByText('LLM records').waitFor();
  }, 60_000);

  it('revokes the key through the confirmation dialog: the old key gets 401, the new one 200', async () => {
    const { page } = b;
    const batch = { logs: [{ level: 'info', message: 'key check' }] };
    expect((await ingest(dt.url, project.key, 'logs', batch)).status).toBe(200);
    await page.goto(at('/settings'));
    await page.getByTestId('revoke-key').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(project.key.slice(0, 7));
    await screenshot(page, 'settings-revoke-dialog');
    // Cancel keeps the key.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await ingest(dt.url, project.key, 'logs', batch)).status).toBe(200);
    await page.getByTestId('revoke-key').click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    const newKey = (await page.getByTestId('new-api-key').textContent())!.trim();
    expect(newKey).toMatch(/^dt_[0-9a-f]{24}$/);
    expect(newKey).not.toBe(project.key);
    const old = await ingest(dt.url, project.key, 'logs', batch);
    expect(old).toEqual({ status: 401, body: { error: 'Missing or invalid API key' } });
    expect((await ingest(dt.url, newKey, 'logs', batch)).status).toBe(200);
    await expect.poll(() => page.getByTestId('key-prefix').textContent()).toBe(`${newKey.slice(0, 7)}…`);
    await screenshot(page, 'settings-api-keys');
    project.key = newKey;
  }, 60_000);

  it('edits allowed origins: a foreign Origin gets 403, a listed one 200', async () => {
    const { page } = b;
    const batch = { logs: [{ level: 'info', message: 'from a browser' }] };
    await page.goto(at('/settings?tab=origins'));
    await page.getByTestId('origins-input').fill('shop.example.com\nhttps://admin.example.org');
    await page.getByTestId('save-origins').click();
    await page.getByText('Saved. Applies to new requests at once.').waitFor();
    await expect.poll(() => page.getByTestId('current-origins').textContent()).toContain('shop.example.com');
    const foreign = await ingest(dt.url, project.key, 'logs', batch, { origin: 'https://evil.example.net' });
    expect(foreign).toEqual({ status: 403, body: { error: 'Origin not allowed' } });
    expect((await ingest(dt.url, project.key, 'logs', batch, { origin: 'https://shop.example.com' })).status).toBe(200);
    expect((await ingest(dt.url, project.key, 'logs', batch)).status).toBe(200); // server to server
  }, 60_000);

  it('shows the log-drain setup and the other settings tabs', async () => {
    const { page } = b;
    await page.goto(at('/settings?tab=drain'));
    expect(await page.getByTestId('drain-url').textContent()).toBe(`${dt.url}/ingest/drain`);
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.getByRole('button', { name: 'Save secret' }).click();
    await expect.poll(() => page.getByTestId('drain-secret-status').textContent()).toBe('set');
    await page.goto(at('/settings?tab=rate-limit'));
    await page.getByLabel('Requests per minute').fill('1200');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    const res = await ingest(dt.url, project.key, 'logs', { logs: [{ level: 'info', message: 'limit check' }] });
    expect(res.status).toBe(200);
  }, 60_000);

  it('raised no script error and no CSP violation on any page', () => {
    expect(b.pageErrors).toEqual([]);
  });
});
