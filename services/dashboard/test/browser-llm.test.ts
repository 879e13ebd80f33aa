import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateCostUsd, loadLlmPrices } from '@devtrail/config';
import { MAX_CONTENT_CHARS } from '@devtrail/kinds';
import { DevtrailClient } from '../../../libs/sdk/src/client.ts';
import { browserAvailable, NO_BROWSER_REASON, openBrowser, screenshot, type BrowserSession } from './support/browser.ts';
import { createProjectInUi, fillSetupForm, ingest, startDashboard } from './support/dashboard.ts';
import { emitGenAi, genAiCalls } from '../../../test/support/otel-genai.ts';

// LLM calls as Langfuse users expect them (docs/otlp.md, "Conversation"; docs/dashboard.md,
// "LLM usage"), into the embedded process: conversations from the real OpenTelemetry JS SDK
// (content in attributes and in events, current and older spellings) and from /ingest/llm
// through devtrail's SDK, read back through the read API and in Chromium: in order, scrubbed
// where a rule matches, truncated past the cap, absent when the project keeps no content;
// and one cost: every total, series, table and the llm_cost alert agree on the effective cost.

const M = 'zq7'; // this run's texts
type Call = Record<string, any>;
/** Polls (beforeAll cannot use expect.poll) until the condition holds, or fails after 20 s. */
async function until(ok: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) if (await ok()) return;
  throw new Error('the calls were not all stored in time');
}
const texts = (messages: Call[]) => messages.flatMap((m) => m.parts.map((p: Call) => p.content ?? p.response ?? p.name));

describe.skipIf(!browserAvailable())(`LLM calls in the dashboard${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  const projects = {} as Record<'kept' | 'off' | 'cost', { id: string; key: string }>;
  const admin = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${dt.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${dt.operatorToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await r.json()) as any;
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(json)}`);
    return json;
  };
  const read = (p: keyof typeof projects, path: string) => admin('GET', `/api/projects/${projects[p].id}${path}`);
  const allCalls = async (p: keyof typeof projects, query = ''): Promise<Call[]> => (await read(p, `/llm-calls?limit=100${query}`)).calls;
  const byOperation = (calls: Call[], op: string) => calls.find((c) => c.operation === op)!;

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url);
    await b.page.goto('/');
    await b.page.waitForURL('**/setup');
    await fillSetupForm(b.page, dt.setupCode!.code, 'owner', 'correct horse battery');
    await b.page.waitForURL('**/projects');
    projects.kept = await createProjectInUi(b.page, 'assistant');
    projects.off = await createProjectInUi(b.page, 'no-content');
    projects.cost = await createProjectInUi(b.page, 'costs');
    // Before any key is used (the receiver caches a project's policy with its key).
    await admin('PUT', `/api/admin/projects/${projects.kept.id}/scrubbing`, { rules: [{ match: 'email' }] });
    await admin('PUT', `/api/admin/projects/${projects.kept.id}/llm`, { llm: { metadata_attributes: ['feature'] } });
    // Content capture off through the settings page.
    await b.page.goto(`/projects/${projects.off.id}/settings?tab=llm`);
    await b.page.locator('input[name="llm-capture"]').uncheck();
    await b.page.getByTestId('save-llm').click();
    await b.page.getByRole('status').getByText('Saved.').waitFor();
    expect((await admin('GET', `/api/admin/projects/${projects.off.id}/data-policy`)).effective.llm.capture_content).toBe(false);

    const calls = genAiCalls(M);
    const ordered = [calls.current, calls.olderInEvents, calls.indexed, calls.perMessageEvents];
    expect(await emitGenAi('assistant', dt.url, projects.kept.key, ordered, { 'enduser.id': `carol-${M}` })).toEqual([0, 0, 0, 0]);
    expect(await emitGenAi('assistant', dt.url, projects.off.key, [calls.current])).toEqual([0]);

    // devtrail's SDK: a tool-calling turn in OpenAI's chat shape, with its cost, user and session.
    for (const p of [projects.kept, projects.off]) {
      const sdk = new DevtrailClient({ apiKey: p.key, baseUrl: dt.url, service: 'assistant' });
      sdk.llmUsage({
        model: 'gpt-4o',
        provider: 'openai',
        operation: 'sdk turn',
        inputTokens: 900,
        outputTokens: 60,
        latencyMs: 700,
        costUsd: 0.02,
        userId: `bob-${M}`,
        sessionId: `s2-${M}`,
        input: [
          { role: 'user', content: `Where is order 42 ${M}?` },
          { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'track', arguments: '{"order":42}' } }] },
          { role: 'tool', tool_call_id: 't1', content: 'in transit' },
        ],
        output: `Order 42 is in transit ${M}.`,
      });
      await sdk.close();
    }
    // A prompt past the cap, straight to /ingest/llm.
    const long = {
      model: 'gpt-4o-mini',
      provider: 'openai',
      operation: 'long prompt',
      input_tokens: 9000,
      output_tokens: 1,
      latency_ms: 1,
      input: `${'lorem '.repeat(7000)}END-${M}`,
      output: 'ok',
    };
    expect((await ingest(dt.url, projects.kept.key, 'llm', long)).status).toBe(200);

    await until(async () => (await allCalls('kept')).length === 6 && (await allCalls('off')).length === 2);
  }, 180_000);
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  describe('the conversation', () => {
    it('from GenAI attributes: system instructions first, scrubbed by the default and the project rules, a tool call; who, session and the chosen attribute in metadata', async () => {
      const current = (await allCalls('kept')).find((x) => x.metadata['otel.span_name'] === 'chat current')!;
      expect(current.input.map((m: Call) => m.role)).toEqual(['system', 'user']);
      expect(current.input[1].parts[0].content).toBe(`My card is [Filtered], write to [Filtered] ${M}`);
      expect(current.output).toEqual([
        { role: 'assistant', parts: [{ type: 'tool_call', id: 'call-1', name: 'lookup_order', arguments: { order: 42 } }], finish_reason: 'tool_call' },
      ]);
      expect(current.metadata).toMatchObject({ 'enduser.id': `alice-${M}`, 'session.id': `s1-${M}`, feature: 'support-bot' });
      expect(current.metadata.tenant).toBeUndefined(); // not chosen by the project
      expect(current.metadata['gen_ai.input.messages']).toBeUndefined(); // content is the call's, not its metadata's
    });

    it('from events (older and current spellings) and from OpenLLMetry’s indexed attributes, in order', async () => {
      const calls = await allCalls('kept');
      const named = (n: string) => calls.find((x) => x.metadata['otel.span_name'] === n)!;
      expect(texts(named('chat older').input)).toEqual([`Summarise ticket 42 ${M}`]);
      expect(texts(named('chat older').output)).toEqual([`Ticket 42 is about billing ${M}.`]);
      expect(named('chat older').metadata['enduser.id']).toBe(`carol-${M}`); // from the resource
      expect(named('chat indexed').input.map((m: Call) => [m.role, m.parts[0].type])).toEqual([
        ['user', 'text'],
        ['assistant', 'tool_call'],
        ['tool', 'tool_call_response'],
      ]);
      expect(texts(named('chat indexed').output)).toEqual([`It is 18 degrees in Paris ${M}.`]);
      expect(texts(named('chat events').input)).toEqual(['Answer in French.', `Hello ${M}`]);
      expect(named('chat events').output).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: `Bonjour ${M}` }], finish_reason: 'stop' }]);
    });

    it('from the SDK: the chat shape stored as messages, the user and session in metadata, the cost as sent', async () => {
      const c = byOperation(await allCalls('kept'), 'sdk turn');
      expect(c.input.map((m: Call) => [m.role, m.parts[0].type])).toEqual([
        ['user', 'text'],
        ['assistant', 'tool_call'],
        ['tool', 'tool_call_response'],
      ]);
      expect(c.output).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: `Order 42 is in transit ${M}.` }] }]);
      expect(c.metadata).toMatchObject({ 'enduser.id': `bob-${M}`, 'session.id': `s2-${M}` });
      expect(c).toMatchObject({ cost_usd: 0.02, sent_cost_usd: 0.02, cost_source: 'sent', content_truncated: false });
    });

    it('past the cap: cut, marked, and the call says so', async () => {
      const c = byOperation(await allCalls('kept'), 'long prompt');
      expect(c.content_truncated).toBe(true);
      const text = c.input[0].parts[0].content as string;
      expect(text).toBe(`${'lorem '.repeat(7000).slice(0, MAX_CONTENT_CHARS)}…`); // the cap counts the text alone
      expect(c.output).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: 'ok' }] }]);
    });

    it('a project that keeps no content stores none, from OTLP or the SDK; the rest of the call is kept', async () => {
      const calls = await allCalls('off');
      for (const c of calls) expect([c.input, c.output, c.content_truncated]).toEqual([[], [], false]);
      expect(byOperation(calls, 'sdk turn').metadata['enduser.id']).toBe(`bob-${M}`);
      expect(byOperation(calls, 'chat').input_tokens).toBe(1200);
    });

    it('is searched with the logs syntax; calls sort by cost, tokens and latency', async () => {
      const found = await allCalls('kept', `&q=${encodeURIComponent(`billing ${M}`)}`);
      expect(found.map((c) => c.metadata['otel.span_name'])).toEqual(['chat older']);
      expect((await allCalls('kept', `&q=${encodeURIComponent('message:paris')}`)).map((c) => c.metadata['otel.span_name'])).toEqual(['chat indexed']);
      expect((await allCalls('kept', `&q=${encodeURIComponent(`${M} -billing -paris -bonjour -lorem`)}`)).map((c) => c.operation).sort()).toEqual(['chat', 'sdk turn']);
      expect((await allCalls('kept', `&q=${encodeURIComponent(`enduser.id:bob-${M}`)}`)).map((c) => c.operation)).toEqual(['sdk turn']);
      const bad = await fetch(`${dt.url}/api/projects/${projects.kept.id}/llm-calls?q=level:error`, { headers: { authorization: `Bearer ${dt.operatorToken}` } });
      expect(bad.status).toBe(400);
      const byCost = await allCalls('kept', '&sort=cost');
      expect(byCost.map((c) => c.cost_usd)).toEqual([...byCost.map((c) => c.cost_usd)].sort((x, y) => y - x));
      expect(byCost[0].operation).toBe('sdk turn');
      const byTokens = await allCalls('kept', '&sort=tokens&order=asc');
      expect(byTokens.map((c) => c.input_tokens + c.output_tokens)).toEqual([15, 70, 900, 960, 1500, 9001]);
      // Paged by cost: two pages of three give the same order as one page of six.
      const first = await read('kept', '/llm-calls?sort=cost&limit=3');
      const second = await read('kept', `/llm-calls?sort=cost&limit=3&cursor=${first.next_cursor}`);
      expect([...first.calls, ...second.calls].map((c: Call) => c.event_id)).toEqual(byCost.map((c) => c.event_id));
    });

    it('strings a session’s calls together in order; usage by user and session', async () => {
      const { sessions } = await read('kept', '/llm-sessions');
      expect(sessions.map((s: Call) => [s.session, s.calls, s.user])).toEqual([
        [`s2-${M}`, 1, `bob-${M}`],
        [`s1-${M}`, 2, `alice-${M}`],
      ]);
      const inOrder = await allCalls('kept', `&session=s1-${M}&sort=time&order=asc`);
      expect(inOrder.map((c) => c.metadata['otel.span_name'])).toEqual(['chat current', 'chat older']);
      const users = (await read('kept', '/llm-calls/by-metadata?key=enduser.id&sort=cost')).values;
      expect(users[0]).toMatchObject({ value: `bob-${M}`, calls: 1, cost_usd: 0.02 });
    });

    it('renders in Chromium: messages in order by role, scrubbed, the tool call, the truncation, a session, and nothing where content is off', async () => {
      const { page } = b;
      await page.goto(`/projects/${projects.kept.id}/llm?q=${encodeURIComponent('message:support')}`);
      // Stored before the tests (beforeAll polled the read API): wait for the page's parts, no reload.
      await page.getByTestId('llm-call-row').first().waitFor({ timeout: 20_000 });
      await page.getByTestId('llm-call-row').first().click();
      const conversation = page.getByTestId('llm-conversation').first();
      await conversation.waitFor();
      expect(await conversation.getByTestId('llm-message').evaluateAll((els) => els.map((e) => e.getAttribute('data-role')))).toEqual(['system', 'user', 'assistant']);
      expect(await conversation.textContent()).toContain(`My card is [Filtered], write to [Filtered] ${M}`);
      expect(await conversation.getByTestId('llm-tool-call').textContent()).toContain('lookup_order');
      expect(await conversation.textContent()).toContain('1,200 input / 300 output tokens');
      await screenshot(page, 'llm-conversation');

      await page.goto(`/projects/${projects.kept.id}/llm?q=${encodeURIComponent('message:lorem')}`); // its end was cut, the start kept
      await page.getByTestId('llm-call-row').filter({ hasText: 'long prompt' }).waitFor({ timeout: 20_000 });
      await page.getByTestId('llm-call-row').first().click();
      await page.getByTestId('llm-truncated').waitFor();

      await page.goto(`/projects/${projects.kept.id}/llm?session=s1-${M}`);
      await page.getByTestId('llm-session').waitFor({ timeout: 20_000 });
      await expect.poll(() => page.getByTestId('llm-session-call').count(), { timeout: 5000 }).toBe(2);
      const steps = await page.getByTestId('llm-session-call').allTextContents();
      expect(steps[0]).toContain('support bot');
      expect(steps[1]).toContain(`Summarise ticket 42 ${M}`);
      expect(await page.getByTestId('llm-top-user').first().textContent()).toContain(`bob-${M}`);
      await screenshot(page, 'llm-session');

      await page.goto(`/projects/${projects.off.id}/llm`);
      await page.getByTestId('llm-call-row').filter({ hasText: 'sdk turn' }).click({ timeout: 20_000 });
      await page.getByTestId('llm-no-content').waitFor();
      expect(b.pageErrors).toEqual([]);
    }, 60_000);
  });

  describe('one cost', () => {
    const prices = loadLlmPrices();
    const calls = [
      { model: 'gpt-4o', input_tokens: 1000, output_tokens: 500, cost_usd: 0.013 },
      { model: 'claude-3-5-sonnet', input_tokens: 200, output_tokens: 100, cost_usd: 0.0021 },
      { model: 'gpt-4o-mini', input_tokens: 12_000, output_tokens: 3_000 },
      { model: 'gpt-4o-mini-2024-07-18', input_tokens: 5_000, output_tokens: 1_000 },
      { model: 'openai/gpt-4o', input_tokens: 700, output_tokens: 70 },
      { model: 'my-local-llama', input_tokens: 400, output_tokens: 40 },
    ];
    const effective = calls.map((c) => c.cost_usd ?? estimateCostUsd(prices, c.model, c.input_tokens, c.output_tokens) ?? 0);
    const total = effective.reduce((a, b) => a + b, 0);
    const estimated = effective.slice(2).reduce((a, b) => a + b, 0);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

    it('every total, series, table and the llm_cost alert use the effective cost', async () => {
      const p = projects.cost;
      // Fires only once every call is counted: the budget is below the total by less than the cheapest priced call.
      const budget = Math.floor((total - 1e-5) * 1e6) / 1e6;
      await admin('POST', `/api/projects/${p.id}/alert-rules`, {
        name: 'LLM budget',
        type: 'llm_cost',
        params: { budget_usd: budget, window_minutes: 60 },
        destinations: [{ type: 'webhook', url: 'https://hooks.example.invalid/llm' }],
      });
      await new Promise((r) => setTimeout(r, 500)); // the alerts consumer's rule cache follows the change
      for (const [i, c] of calls.entries())
        expect(
          (
            await ingest(dt.url, p.key, 'llm', {
              provider: 'x',
              operation: `op${i}`,
              latency_ms: 10 + i,
              metadata: { feature: i % 2 ? 'a' : 'b', 'session.id': 'one' },
              ...c,
            })
          ).status,
        ).toBe(200);
      await expect.poll(async () => (await allCalls('cost')).length, { timeout: 20_000 }).toBe(calls.length);

      const close = (x: number) => expect(x).toBeCloseTo(total, 9);
      const perCall = await allCalls('cost');
      close(sum(perCall.map((c) => c.cost_usd)));
      expect(perCall.map((c) => c.cost_source).sort()).toEqual(['estimated', 'estimated', 'estimated', 'sent', 'sent', 'unpriced']);
      const { usage } = await read('cost', '/llm-usage');
      close(sum(usage.map((u: Call) => u.cost_usd)));
      expect(sum(usage.map((u: Call) => u.estimated_cost_usd))).toBeCloseTo(estimated, 9);
      expect(sum(usage.map((u: Call) => u.sent_cost_usd))).toBeCloseTo(0.013 + 0.0021, 9);
      expect(sum(usage.map((u: Call) => u.unpriced_calls))).toBe(1);
      const chart = await read('cost', '/llm-breakdown?buckets=12');
      close(sum(chart.series.map((s: Call) => s.cost_usd)));
      close(sum(chart.models.map((m: Call) => m.cost_usd)));
      close(sum((await read('cost', '/llm-calls/by-metadata?key=feature')).values.map((v: Call) => v.cost_usd)));
      close(sum((await read('cost', '/llm-sessions')).sessions.map((s: Call) => s.cost_usd)));

      await expect
        .poll(async () => (await dt.adapters.relational.query<{ payload: Call }>('SELECT payload FROM alert_notifications WHERE project_id = $1', [p.id])).length, {
          timeout: 20_000,
        })
        .toBe(1);
      const [{ payload }] = await dt.adapters.relational.query<{ payload: Call }>('SELECT payload FROM alert_notifications WHERE project_id = $1', [p.id]);
      const alert = typeof payload === 'string' ? JSON.parse(payload) : payload;
      expect(alert.value).toBeCloseTo(total, 6);

      const { page } = b;
      await page.goto(`/projects/${p.id}/llm`);
      await page.getByTestId('llm-table').getByText('my-local-llama').waitFor({ timeout: 20_000 });
      const usd = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
      expect(await page.getByTestId('llm-total-cost').textContent()).toBe(usd(total));
      expect(await page.getByTestId('llm-estimated-share').textContent()).toBe(`(${Math.round((100 * estimated) / total)}%)`);
      await screenshot(page, 'llm-one-cost');
    }, 60_000);
  });
});
