import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { Page } from 'playwright-core';
import { browserAvailable, horizontalOverflow, NO_BROWSER_REASON, openBrowser, screenshot, type BrowserSession } from './support/browser.ts';
import { createProjectInUi, fillSetupForm, ingest, startDashboard } from './support/dashboard.ts';
import { logIn, OWNER } from './support/demo-project.ts';

// The LLM page's views of one trace, one session and one end user (docs/dashboard.md, "LLM
// usage"; docs/api.md, "LLM traces and users"), into the embedded process: an agent's trace from
// the real OpenTelemetry JS SDK (a root span, a generation under it, a tool span with a second
// generation under that), an 8-turn session through /ingest/llm that resends its history each
// turn, and calls of two users, two services and three models. The read API's totals are the
// sums of the calls it lists; in Chromium, on a desktop and a phone, a trace opens as its tree,
// a session reads as one thread, and a user's page shows their figures.

type Call = Record<string, any>;
const SYSTEM = 'You are the travel desk. Answer in one sentence.';
/** Polls (beforeAll cannot use expect.poll) until the condition holds, or fails after 20 s. */
async function until(what: string, ok: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) if (await ok()) return;
  throw new Error(`${what} not stored in time`);
}

/** One agent run as a GenAI instrumentation traces it; answers the trace id. */
async function emitAgentTrace(base: string, key: string): Promise<string> {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'agent' }),
    spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${base}/v1/traces`, headers: { authorization: `Bearer ${key}` } }))],
  });
  const tracer = provider.getTracer('agent', '1.0.0');
  const generation = (model: string, input: number, output: number) => ({
    kind: SpanKind.CLIENT,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': model,
      'gen_ai.usage.input_tokens': input,
      'gen_ai.usage.output_tokens': output,
      'enduser.id': 'ana',
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `Plan a trip (${model})` }] }]),
    },
  });
  const root = tracer.startSpan('agent run');
  const inRoot = trace.setSpan(context.active(), root);
  tracer.startSpan('chat gpt-4o-mini', generation('gpt-4o-mini', 1000, 200), inRoot).end();
  const tool = tracer.startSpan('tool search_flights', {}, inRoot);
  tracer.startSpan('chat gpt-4o', generation('gpt-4o', 3000, 400), trace.setSpan(inRoot, tool)).end();
  tool.end();
  root.end();
  await provider.forceFlush();
  await provider.shutdown();
  return root.spanContext().traceId;
}

/** A session of `turns` calls; each resends the history (system, then every user and assistant message so far). */
function sessionTurns(session: string, user: string, turns: number) {
  const history: Call[] = [{ role: 'system', content: SYSTEM }];
  return Array.from({ length: turns }, (_, i) => {
    history.push({ role: 'user', content: `Question ${i + 1} of ${session}` });
    const input = [...history];
    const answer = { role: 'assistant', content: `Answer ${i + 1} of ${session}` };
    history.push(answer);
    return {
      service: 'desk',
      model: 'claude-3-5-haiku',
      provider: 'anthropic',
      operation: 'chat',
      input_tokens: 100 * (i + 1),
      output_tokens: 20,
      cost_usd: 0.0001 * (i + 1),
      latency_ms: 300,
      metadata: { 'session.id': session, 'enduser.id': user },
      input,
      output: [answer],
    };
  });
}

describe.skipIf(!browserAvailable())(`LLM traces, sessions and users${browserAvailable() ? '' : ` (skipped: ${NO_BROWSER_REASON})`}`, () => {
  let dt: Awaited<ReturnType<typeof startDashboard>>;
  let b: BrowserSession;
  let project: { id: string; key: string };
  let traceId: string;
  const at = (path: string) => `/projects/${project.id}${path}`;
  const read = async (path: string) => {
    const r = await fetch(`${dt.url}/api/projects/${project.id}${path}`, { headers: { authorization: `Bearer ${dt.operatorToken}` } });
    const json = (await r.json()) as any;
    if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(json)}`);
    return json;
  };
  const sum = (calls: Call[], f: (c: Call) => number) => calls.reduce((n, c) => n + f(c), 0);

  beforeAll(async () => {
    dt = await startDashboard();
    b = await openBrowser(dt.url, { viewport: { width: 1440, height: 900 } });
    await b.page.goto('/');
    await b.page.waitForURL('**/setup');
    await fillSetupForm(b.page, dt.setupCode!.code, OWNER.username, OWNER.password);
    await b.page.waitForURL('**/projects');
    project = await createProjectInUi(b.page, 'travel');
    traceId = await emitAgentTrace(dt.url, project.key);
    for (const call of [...sessionTurns('trip-1', 'ana', 8), ...sessionTurns('trip-2', 'bo', 2)])
      expect((await ingest(dt.url, project.key, 'llm', call)).status).toBe(200);
    expect((await ingest(dt.url, project.key, 'llm', { ...sessionTurns('solo', 'bo', 1)[0], service: 'batch', model: 'gpt-4o-mini', provider: 'openai' })).status).toBe(
      200,
    );
    // Scores: one on bo's session, bo's own feedback, one on the agent's trace.
    for (const score of [
      { name: 'helpfulness', value: 0.8, session_id: 'trip-2' },
      { name: 'user_feedback', value: false, user_id: 'bo', comment: 'too slow' },
      { name: 'helpfulness', value: 0.6, trace_id: traceId },
    ])
      expect((await ingest(dt.url, project.key, 'scores', score)).status).toBe(200);
    await until('13 calls', async () => (await read('/llm-calls?limit=100')).calls.length === 13);
    await until("the trace's 4 spans", async () => (await read(`/traces/${traceId}`).catch(() => ({ spans: [] }))).spans.length === 4);
  }, 90_000);
  afterAll(async () => {
    await b?.close();
    await dt?.close();
  });

  it("answers a trace's generations under their spans, and a total equal to their sum", async () => {
    const t = await read(`/llm-traces/${traceId}`);
    expect(t.spans.map((s: Call) => s.operation).sort()).toEqual(['agent run', 'chat gpt-4o', 'chat gpt-4o-mini', 'tool search_flights']);
    expect(t.calls.map((c: Call) => c.model)).toEqual(['gpt-4o-mini', 'gpt-4o']);
    const spanOf = (op: string) => t.spans.find((s: Call) => s.operation === op).span_id;
    expect(t.calls.map((c: Call) => c.metadata.span_id)).toEqual([spanOf('chat gpt-4o-mini'), spanOf('chat gpt-4o')]);
    expect(t.total.calls).toBe(2);
    expect(t.total.input_tokens).toBe(4000);
    expect(t.total.output_tokens).toBe(600);
    expect(t.total.cost_usd).toBeGreaterThan(0); // estimated from the price table: OTLP sends no cost
    expect(t.total.cost_usd).toBeCloseTo(
      sum(t.calls, (c) => c.cost_usd),
      10,
    );
    expect(t.total.estimated_cost_usd).toBeCloseTo(t.total.cost_usd, 10);
    // The trace's score shows on each of its generations.
    await expect
      .poll(async () => (await read(`/llm-traces/${traceId}`)).calls.map((c: Call) => c.scores.map((x: Call) => [x.name, x.value])), { timeout: 10_000 })
      .toEqual([[['helpfulness', 0.6]], [['helpfulness', 0.6]]]);
    const unknown = await read('/llm-traces/0123456789abcdef0123456789abcdef');
    expect(unknown).toMatchObject({ spans: [], calls: [], total: { calls: 0, cost_usd: 0 } });
  });

  it("answers a user's first and last seen, sessions and spend, equal to their calls'", async () => {
    const calls = (await read(`/llm-calls?limit=100&metadata=${encodeURIComponent('enduser.id:bo')}`)).calls as Call[];
    expect(calls).toHaveLength(3);
    const u = await read('/llm-users/bo');
    const times = calls.map((c) => c.timestamp).sort();
    expect(u).toMatchObject({ user: 'bo', calls: 3, sessions: 2, first_at: times[0], last_at: times[2] });
    expect(u.input_tokens).toBe(sum(calls, (c) => c.input_tokens));
    expect(u.cost_usd).toBeCloseTo(
      sum(calls, (c) => c.cost_usd),
      10,
    );
    await expect
      .poll(async () => (await read('/llm-users/bo')).scores, { timeout: 10_000 })
      .toEqual([
        { name: 'helpfulness', count: 1, average: 0.8 },
        { name: 'user_feedback', count: 1, average: 0 },
      ]);
    const ana = await read('/llm-users/ana');
    expect(ana).toMatchObject({ calls: 10, sessions: 1 }); // 8 turns and the trace's 2 generations
    expect(await read('/llm-users/nobody')).toMatchObject({ calls: 0, sessions: 0, first_at: null, last_at: null });
    const breakdown = await read(`/llm-breakdown?buckets=4&metadata=${encodeURIComponent('enduser.id:bo')}`);
    expect(sum(breakdown.models, (m) => m.calls)).toBe(3);
    expect(sum(breakdown.series, (m) => m.cost_usd)).toBeCloseTo(u.cost_usd, 10);
  });

  it('filters usage by service and by model', async () => {
    const all = (await read('/llm-usage')).usage as Call[];
    const byService = (await read('/llm-usage?service=batch')).usage as Call[];
    const byModel = (await read('/llm-usage?model=claude-3-5-haiku')).usage as Call[];
    expect(byService.map((u) => [u.service, u.model, u.calls])).toEqual([['batch', 'gpt-4o-mini', 1]]);
    expect(byModel.every((u) => u.model === 'claude-3-5-haiku')).toBe(true);
    expect(sum(byModel, (u) => u.calls)).toBe(10);
    expect(sum(all, (u) => u.calls)).toBe(13);
  });

  /** The checks of each viewport: the trace's tree, the session's thread, the user's page. */
  async function walkViews(page: Page, width: number, name: string) {
    await page.goto(at(`/llm?range=1h&trace=${traceId}`));
    const spans = page.getByTestId('llm-trace-span');
    await expect.poll(() => spans.count(), { timeout: 15_000 }).toBe(4);
    expect(await spans.first().textContent()).toContain('agent run');
    expect(await page.getByTestId('llm-generation').count()).toBe(2);
    const total = await read(`/llm-traces/${traceId}`);
    expect(await page.getByTestId('llm-trace-total').textContent()).toContain('2 generations');
    expect(await page.getByTestId('llm-trace-total').textContent()).toContain('4,600 tokens');
    expect(total.total.cost_usd).toBeGreaterThan(0);
    await page.getByTestId('llm-generation').filter({ hasText: 'gpt-4o-mini' }).getByRole('button').click();
    await page.getByText('Plan a trip (gpt-4o-mini)').waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, `llm-trace${name}`, { fullPage: false });

    await page.goto(at('/llm?range=1h&session=trip-1'));
    const turns = page.getByTestId('llm-session-call');
    await expect.poll(() => turns.count(), { timeout: 15_000 }).toBe(8);
    // The session's total: its 8 calls' tokens (100 to 800 in, 20 out each) and cost ($0.0001 to $0.0008).
    expect(await page.getByTestId('llm-session-total').textContent()).toBe('8 calls in order · 3,760 tokens · $0.0036');
    // Each turn shows its own question and answer; the system prompt once, in the first turn.
    await expect.poll(() => page.getByTestId('llm-session').getByText(SYSTEM).count()).toBe(1);
    for (let i = 1; i <= 8; i++) expect(await page.getByTestId('llm-session').getByText(`Question ${i} of trip-1`, { exact: true }).count()).toBe(1);
    await turns.nth(7).getByTestId('llm-earlier').click(); // the last turn's history, unfolded on demand
    await expect.poll(() => page.getByTestId('llm-session').getByText(SYSTEM).count()).toBe(2);
    expect(await horizontalOverflow(page)).toBe(0);

    await page.goto(at('/llm?range=1h'));
    await page.getByTestId('llm-top-user').first().waitFor({ timeout: 15_000 });
    await page.getByTestId('llm-top-user').filter({ hasText: 'ana' }).getByTestId('llm-top-user-calls').click();
    await expect.poll(() => page.getByTestId('llm-call-row').count(), { timeout: 15_000 }).toBe(10);
    // Scrolled down to the list: its top in the upper part of the window (or the page's end reached).
    const inView = () =>
      page.evaluate(() => {
        const top = document.querySelector('[data-testid="llm-calls"]')!.getBoundingClientRect().top;
        const atEnd = Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight - 1;
        return window.scrollY > 0 && top >= -1 && (top < 100 || (atEnd && top < window.innerHeight / 2));
      });
    await expect.poll(inView).toBe(true);
    // The cost chart's values are in dollars, and a model has one colour in every chart.
    const costChart = page.getByTestId('llm-cost-chart');
    await costChart.locator('.u-over').hover();
    await expect.poll(async () => (await costChart.locator('.u-legend .u-value').allTextContents()).filter((v) => v.startsWith('$')).length).toBeGreaterThan(0);
    const colours = async (testId: string) =>
      page
        .getByTestId(testId)
        .locator('.u-legend .u-series')
        .evaluateAll((rows) =>
          Object.fromEntries(rows.map((r) => [r.querySelector('.u-label')?.textContent, getComputedStyle(r.querySelector('.u-marker')!).borderColor])),
        );
    const [cost, tokens] = [await colours('llm-cost-chart'), await colours('llm-tokens-chart')];
    expect(Object.keys(cost)).toContain('claude-3-5-haiku');
    for (const model of ['claude-3-5-haiku', 'gpt-4o', 'gpt-4o-mini']) expect(cost[model], model).toBe(tokens[model]);
    expect(new Set(['claude-3-5-haiku', 'gpt-4o', 'gpt-4o-mini'].map((m) => cost[m])).size).toBe(3);

    await page.goto(at('/llm?range=1h'));
    await page.getByTestId('llm-top-user').filter({ hasText: 'bo' }).getByTestId('llm-user-link').click();
    await page.waitForURL(`**${at('/llm/users/bo')}**`);
    await expect.poll(() => page.getByTestId('llm-user-calls').textContent(), { timeout: 15_000 }).toBe('3');
    expect(await page.getByTestId('llm-user-sessions').textContent()).toBe('2');
    await expect.poll(() => page.getByTestId('llm-call-row').count(), { timeout: 15_000 }).toBe(3);
    await expect.poll(() => page.getByTestId('llm-session-row').count(), { timeout: 15_000 }).toBe(2);
    expect(await page.getByTestId('llm-user-score').allTextContents()).toEqual(['helpfulness10.80', 'user_feedback10.00']);
    expect(await horizontalOverflow(page)).toBe(0);
    await screenshot(page, `llm-user${name}`, { fullPage: width < 500 });
  }

  it('shows a trace as its tree, a session as one thread and a user on their page, at 1440 px', async () => {
    await walkViews(b.page, 1440, '');
    expect(b.pageErrors).toEqual([]);
  }, 90_000);

  it('shows the same on a phone (390x844), no wider than the screen', async () => {
    const phone = await openBrowser(dt.url, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    try {
      await logIn(phone.page, at('/llm?range=1h'));
      await walkViews(phone.page, 390, '-phone-dark');
      expect(phone.pageErrors).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 90_000);
});
