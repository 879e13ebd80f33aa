import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { effectiveCostUsd, estimateCostUsd, loadLlmPrices, withEdits } from '@devtrail/config';
import { keepPriceEdits } from '@devtrail/relational-store';
import { browserAvailable, horizontalOverflow, NO_BROWSER_REASON, openBrowser, screenshot, type BrowserSession } from './support/browser.ts';
import { createProjectInUi, fillSetupForm, ingest, startDashboard } from './support/dashboard.ts';
import { logIn, OWNER } from './support/demo-project.ts';
import { emitGenAi } from '../../../test/support/otel-genai.ts';

// Prices the operator corrects (docs/otlp.md#llm-cost), in the embedded process: cached input
// tokens from /ingest/llm and from an OpenTelemetry GenAI span priced at the cached price; a
// model the files do not price, priced through the API with a cached price and a tier past a
// prompt size, which prices its past calls at the next read and the llm_cost rule's next call;
// another process's copy of the table following within its refresh; the edit removed; bad
// bodies refused; and the owner editing a price on the LLM prices page, desktop and phone.

type Call = Record<string, any>;
const EDIT = { provider: 'acme', input: 1, output: 2, cached_input: 0.5, tiers: [{ above_input_tokens: 4000, input: 2, output: 4, cached_input: 1 }] };

describe.skipIf(!browserAvailable())(`LLM prices the operator corrects${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  let project: { id: string; key: string };
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${dt.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${dt.operatorToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as any };
  };
  const calls = async (): Promise<Call[]> => (await call('GET', `/api/projects/${project.id}/llm-calls?limit=100`)).body.calls;
  const byOp = async (op: string) => (await calls()).find((c) => c.operation === op)!;
  const llm = (operation: string, model: string, input_tokens: number, output_tokens: number, cached_input_tokens?: number) =>
    ingest(dt.url, project.key, 'llm', {
      service: 'bot',
      provider: 'x',
      operation,
      model,
      input_tokens,
      output_tokens,
      latency_ms: 5,
      ...(cached_input_tokens !== undefined && { cached_input_tokens }),
    });

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url, { viewport: { width: 1440, height: 900 } });
    await b.page.goto('/');
    await b.page.waitForURL('**/setup');
    await fillSetupForm(b.page, dt.setupCode!.code, OWNER.username, OWNER.password);
    await b.page.waitForURL('**/projects');
    project = await createProjectInUi(b.page, 'prices');
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  it('prices cached input tokens at the cached price, from /ingest/llm and from OTLP', async () => {
    expect((await llm('cached', 'gpt-4o-mini', 1000, 100, 400)).status).toBe(200);
    expect((await llm('over', 'gpt-4o-mini', 100, 10, 900)).status).toBe(200); // more cached than input: all of it
    const usage = { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai', 'gen_ai.request.model': 'gpt-4o-mini' };
    expect(
      await emitGenAi('bot', dt.url, project.key, [
        {
          name: 'otlp cached',
          attributes: { ...usage, 'gen_ai.usage.input_tokens': 2000, 'gen_ai.usage.output_tokens': 50, 'gen_ai.usage.cache_read.input_tokens': 1500 },
        },
      ]),
    ).toEqual([0]);
    await expect.poll(async () => (await calls()).length, { timeout: 20_000 }).toBe(3);
    // gpt-4o-mini: $0.15 input, $0.075 cached input, $0.60 output per million tokens (libs/config/data/llm-prices.json).
    expect(await byOp('cached')).toMatchObject({ cached_input_tokens: 400, cost_source: 'estimated', cost_usd: 0.00018 }); // 600 x 0.15 + 400 x 0.075 + 100 x 0.60; uncached 0.00021
    expect(await byOp('over')).toMatchObject({ cached_input_tokens: 100 });
    expect((await byOp('chat')).cached_input_tokens).toBe(1500); // the OTLP call's operation is the span's gen_ai.operation.name
    const table = loadLlmPrices();
    for (const c of await calls()) expect(c.cost_usd).toBe(estimateCostUsd(table, c.model, c.input_tokens, c.output_tokens, c.cached_input_tokens));
    const rows: Call[] = (await call('GET', `/api/projects/${project.id}/llm-usage`)).body.usage;
    expect(rows.reduce((n, u) => n + u.cached_input_tokens, 0)).toBe(2000);
  });

  it('an edit prices past calls at the next read, the llm_cost rule from the next call, and another process within its refresh', async () => {
    expect((await llm('a', 'acme-llm-v2', 500, 100)).status).toBe(200);
    expect((await llm('b', 'acme-llm-v2', 5000, 100, 1000)).status).toBe(200);
    await expect.poll(async () => (await calls()).length, { timeout: 20_000 }).toBe(5);
    expect(await byOp('a')).toMatchObject({ cost_source: 'unpriced', cost_usd: 0 });
    const elsewhere = loadLlmPrices(); // another process's table, kept by its own keeper
    const keeper = await keepPriceEdits(dt.adapters.relational, (e) => withEdits(elsewhere, e), { intervalMs: 200, onError: () => {} });
    try {
      const put = await call('PUT', '/api/admin/llm-prices/ACME-LLM', EDIT);
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(put.body.price).toMatchObject({ model: 'acme-llm', source: 'edited', updated_by: 'operator', cached_input: 0.5 });
      // Past calls, priced anew: 500 x $1 + 100 x $2; and past the tier: 4,000 x $2 + 1,000 cached x $1 + 100 x $4.
      expect(await byOp('a')).toMatchObject({ cost_source: 'estimated', cost_usd: 0.0007 });
      expect(await byOp('b')).toMatchObject({ cost_source: 'estimated', cost_usd: 0.0094 });
      await expect.poll(() => elsewhere.edited.has('acme-llm'), { timeout: 5000 }).toBe(true);
      expect(effectiveCostUsd(elsewhere, { model: 'acme-llm-v2', cost_usd: 0, input_tokens: 5000, output_tokens: 100, cached_input_tokens: 1000 })).toBe(0.0094);
    } finally {
      keeper.stop();
    }
    const listed = (await call('GET', '/api/admin/llm-prices')).body;
    expect(listed.prices.find((p: Call) => p.model === 'acme-llm')).toMatchObject({ source: 'edited', tiers: EDIT.tiers });
    expect(listed.prices.find((p: Call) => p.model === 'gpt-4o-mini')).toMatchObject({ source: 'file', cached_input: 0.075 });

    // The llm_cost rule: a budget only the edited price of the next call passes (20,000 x $2 + 1,000 x $4 = $0.044).
    const rule = await call('POST', `/api/projects/${project.id}/alert-rules`, {
      name: 'acme budget',
      type: 'llm_cost',
      params: { budget_usd: 0.04, window_minutes: 60 },
      destinations: [{ type: 'webhook', url: 'https://hooks.example.invalid/llm' }],
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    await new Promise((r) => setTimeout(r, 500)); // the alerts consumer's rule cache follows the change
    expect((await llm('c', 'acme-llm-v2', 20_000, 1000)).status).toBe(200);
    const notifications = () => dt.adapters.relational.query<{ payload: unknown }>('SELECT payload FROM alert_notifications WHERE project_id = $1', [project.id]);
    await expect.poll(async () => (await notifications()).length, { timeout: 20_000 }).toBe(1);
    const [{ payload }] = await notifications();
    expect((typeof payload === 'string' ? JSON.parse(payload) : payload).value).toBeCloseTo(0.044, 9);
  });

  it('refuses bad prices with the zod-style 400, and a removed edit leaves the files in force', async () => {
    const bad = [
      { ...EDIT, tiers: [EDIT.tiers[0], { ...EDIT.tiers[0], above_input_tokens: 10 }] },
      { ...EDIT, input: 1e9 },
      { ...EDIT, output: -1 },
      { input: 1 },
      { ...EDIT, tiers: Array.from({ length: 5 }, (_, i) => ({ above_input_tokens: i + 1, input: 1, output: 1 })) },
    ];
    for (const body of bad) {
      const r = await call('PUT', '/api/admin/llm-prices/acme-llm', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body).toMatchObject({ success: false, error: { name: 'ZodError' } });
    }
    expect((await call('PUT', `/api/admin/llm-prices/${encodeURIComponent('openai/gpt-4o')}`, EDIT)).status).toBe(400);
    expect((await call('DELETE', '/api/admin/llm-prices/acme-llm')).body).toEqual({ price: null });
    expect((await call('DELETE', '/api/admin/llm-prices/acme-llm')).status).toBe(404);
    expect(await byOp('a')).toMatchObject({ cost_source: 'unpriced', cost_usd: 0 });
  });

  it('the owner prices a model on the LLM prices page; it fits a phone', async () => {
    const { page } = b;
    await page.goto(`/projects/${project.id}/llm?range=1h`);
    await page.getByTestId('llm-prices-link').click();
    await page.waitForURL('**/llm-prices');
    await page.getByTestId('new-price').click();
    const form = page.getByTestId('price-form');
    await form.locator('input[name="price-model"]').fill('acme-llm');
    await form.locator('input[name="price-input"]').fill('1');
    await form.locator('input[name="price-cached_input"]').fill('0.5');
    await form.locator('input[name="price-output"]').fill('2');
    await page.getByTestId('add-tier').click();
    await form.locator('input[name="tier-0-above_input_tokens"]').fill('4000');
    await form.locator('input[name="tier-0-input"]').fill('2');
    await form.locator('input[name="tier-0-cached_input"]').fill('1');
    await form.locator('input[name="tier-0-output"]').fill('4');
    await page.getByTestId('save-price').click();
    const row = page.locator('[data-testid="price-row"][data-model="acme-llm"]');
    await row.getByTestId('price-edited').waitFor();
    expect(await row.textContent()).toContain('> 4,000: 2 / 4');
    expect(await byOp('b')).toMatchObject({ cost_source: 'estimated', cost_usd: 0.0094 });
    await screenshot(page, 'llm-prices', { fullPage: false });
    expect(b.pageErrors).toEqual([]);

    const phone = await openBrowser(dt.url, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    try {
      await logIn(phone.page, '/llm-prices');
      await phone.page.locator('[data-testid="price-row"][data-model="acme-llm"]').getByTestId('edit-price').click();
      await phone.page.getByTestId('price-form').waitFor();
      expect(await horizontalOverflow(phone.page)).toBe(0);
      await screenshot(phone.page, 'llm-prices-phone-dark', { fullPage: false });
      expect(phone.pageErrors).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 60_000);
});
