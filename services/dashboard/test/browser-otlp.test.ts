import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, NO_BROWSER_REASON, openBrowser, reloadUntilVisible, screenshot, type BrowserSession } from './support/browser.ts';
import { createProjectInUi, fillSetupForm, startDashboard } from './support/dashboard.ts';
import { emitCheckout, type Sent } from '../../../test/support/otel-emit.ts';

// What an OpenTelemetry SDK sends over OTLP (the real JS SDK and its protobuf exporters,
// into the embedded process) shows on the dashboard's pages, in headless Chromium: the
// logs, the trace waterfall, the error group from the recorded exception, and the GenAI
// span's LLM usage with its estimated cost.

describe.skipIf(!browserAvailable())(`OTLP data in the dashboard${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  let project: { id: string; key: string };
  let sent: Sent;
  const at = (path: string) => `/projects/${project.id}${path}`;

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url);
    await b.page.goto('/');
    await b.page.waitForURL('**/setup');
    await fillSetupForm(b.page, dt.setupCode!.code, 'owner', 'correct horse battery');
    await b.page.waitForURL('**/projects');
    project = await createProjectInUi(b.page, 'otel-shop');
    const r = await emitCheckout('otel-checkout', 'protobuf', dt.url, project.key);
    expect(r.results.every((x) => x.code === 0)).toBe(true);
    sent = r.sent;
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  it('shows the OTLP log records with their levels and trace link', async () => {
    const { page } = b;
    await page.goto(at('/logs?service=otel-checkout'));
    await reloadUntilVisible(page, 'checkout failed (protobuf)');
    await page.getByText('cart priced (protobuf)').click();
    await page.getByText('"cart.items": 3').waitFor();
    // The link keeps the page's filters (the service), as every link between pages does.
    expect(new URL((await page.getByTestId('log-trace-link').getAttribute('href'))!, dt.url).pathname).toBe(at(`/traces/${sent.traceId}`));
    await screenshot(page, 'otlp-logs');
  }, 60_000);

  it('shows the nested spans as one trace, with OTel attributes in the span detail', async () => {
    const { page } = b;
    await page.goto(at(`/traces/${sent.traceId}`));
    await reloadUntilVisible(page, 'SELECT orders');
    await expect.poll(() => page.getByTestId('span-row').count(), { timeout: 5000 }).toBe(3);
    expect(await page.getByTestId('trace-heading').textContent()).toBe('GET /checkout');
    await page.getByTestId('span-row').filter({ hasText: 'chat gpt-4o-mini' }).click();
    await page.getByTestId('span-detail').getByText('"gen_ai.request.model": "gpt-4o-mini"').waitFor();
    await page.getByTestId('span-detail').getByText('"otel.span_kind": "client"').waitFor();
    await page.getByTestId('trace-logs').getByText('payment slow (protobuf)').waitFor();
    await screenshot(page, 'otlp-trace');
  }, 60_000);

  it('groups the recorded exception as an error with its stack', async () => {
    const { page } = b;
    await page.goto(at('/errors'));
    await reloadUntilVisible(page, /Cannot read properties of undefined \(reading 'total'\) \[protobuf\]/);
    const row = page.getByTestId('error-group-row').first();
    expect(await row.textContent()).toContain('TypeError');
    await row.getByRole('link').first().click();
    await page
      .getByTestId('stack-trace')
      .getByText(/otel-emit\.ts/)
      .first()
      .waitFor();
    await screenshot(page, 'otlp-error');
  }, 60_000);

  it('shows the GenAI span as LLM usage, its cost estimated from the price table', async () => {
    const { page } = b;
    await page.goto(at('/llm'));
    await reloadUntilVisible(page, 'gpt-4o-mini-2024-07-18');
    const table = await page.getByTestId('llm-table').textContent();
    expect(table).toContain('openai');
    expect(table).toContain('1,200');
    // gpt-4o-mini's prices: 1,200 x $0.15 + 300 x $0.60 per million = $0.00036; OTLP sends no cost, so the cost is the estimate.
    expect(await page.getByTestId('llm-total-cost').textContent()).toBe('$0.00036');
    expect(await page.getByTestId('llm-estimated').first().textContent()).toBe('$0.00036');
    expect(await page.getByTestId('llm-estimated-share').textContent()).toBe('(100%)');
    await screenshot(page, 'otlp-llm-usage');
    expect(b.pageErrors).toEqual([]);
  }, 60_000);
});
