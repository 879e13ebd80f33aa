import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, pipeline, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, stackUp } from '../support/stack.ts';
import { emitCheckout, type Sent } from '../support/otel-emit.ts';

// The real OpenTelemetry JS SDK, with both OTLP/HTTP exporters (protobuf and JSON) for
// traces and logs, sends to the real receiver process; consumers write to ClickHouse; the
// read API shows every mapped field (docs/otlp.md).
const up = await stackUp();

describe.skipIf(!up)(`OpenTelemetry JS SDK -> OTLP/HTTP -> devtrail${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let receiver: ServiceProcess;
  let dashboard: ServiceProcess;
  let project: { id: string; key: string };
  const api = async (path: string) => (await apiGet(dashboard, p.operatorToken, `/api/projects/${project.id}${path}`)).body;

  beforeAll(async () => {
    p = await pipeline();
    receiver = await p.start('receiver');
    await p.start('consumers');
    dashboard = await p.start('dashboard');
    const created = JSON.parse((await p.cli(['project', 'create', 'otel', '--json'], dashboard)).stdout);
    project = { id: created.project.id, key: created.api_key };
  }, 180_000);
  afterAll(async () => p?.close());

  describe.each(['protobuf', 'json'] as const)('with the %s exporters', (encoding) => {
    const service = `otel-${encoding}`;
    let sent: Sent;

    it('every export is acknowledged', async () => {
      const r = await emitCheckout(service, encoding, receiver.url, project.key);
      sent = r.sent;
      // 3 spans + 3 log records, each exported on end (SimpleSpan/LogRecordProcessor).
      expect(r.results).toHaveLength(6);
      expect(r.results.map((x) => [x.code, x.error?.message])).toEqual(Array(6).fill([0, undefined]));
    });

    it('the nested spans read back as one trace with mapped fields', async () => {
      await expect.poll(async () => (await api(`/traces/${sent.traceId}`)).spans?.length, { timeout: 15_000 }).toBe(3);
      const spans = (await api(`/traces/${sent.traceId}`)).spans;
      const byId = (id: string) => spans.find((s: any) => s.span_id === id);
      expect(byId(sent.rootId)).toMatchObject({
        operation: 'GET /checkout',
        parent_span_id: '',
        status: 'error',
        service,
        environment: 'staging',
        release: `${encoding}-1.0.0`,
      });
      expect(byId(sent.rootId).metadata).toMatchObject({
        'http.route': '/checkout',
        'otel.span_kind': 'server',
        'otel.scope.name': 'checkout-handler',
        'otel.resource': { 'host.name': 'test-host' },
      });
      expect(byId(sent.dbId)).toMatchObject({ operation: 'SELECT orders', parent_span_id: sent.rootId, status: 'ok' });
      expect(byId(sent.dbId).duration_ms).toBeGreaterThanOrEqual(14);
      expect(byId(sent.llmId)).toMatchObject({ operation: 'chat gpt-4o-mini', parent_span_id: sent.rootId });
    });

    it('the GenAI span reads back as LLM usage', async () => {
      await expect.poll(async () => (await api('/llm-usage')).usage?.filter((u: any) => u.service === service).length, { timeout: 15_000 }).toBe(1);
      const usage = (await api('/llm-usage')).usage.find((u: any) => u.service === service);
      // No cost sent: the effective cost is the estimate (docs/api.md, LLM usage).
      expect(usage).toMatchObject({ model: 'gpt-4o-mini-2024-07-18', provider: 'openai', calls: 1, input_tokens: 1200, output_tokens: 300, sent_cost_usd: 0 });
      // gpt-4o-mini's row of libs/config/data/llm-prices.json: 1200 x 0.15 + 300 x 0.60 per million.
      expect(usage.estimated_cost_usd).toBeCloseTo(0.00036, 10);
      expect(usage.cost_usd).toBeCloseTo(0.00036, 10);
      expect(usage.latency_p50_ms).toBeGreaterThanOrEqual(24);
    });

    it('the recorded exception reads back as an error with the native fingerprint and the trace id', async () => {
      const mine = async () => (await api(`/errors?limit=100`)).errors?.filter((e: any) => e.service === service) ?? [];
      await expect.poll(async () => (await mine()).length, { timeout: 15_000 }).toBe(1);
      const [e] = await mine();
      expect(e).toMatchObject({
        error_type: 'TypeError',
        error_message: `Cannot read properties of undefined (reading 'total') [${encoding}]`,
        severity: 'high',
        trace_id: sent.traceId,
        release: `${encoding}-1.0.0`,
      });
      expect(e.stack_trace).toMatch(/^TypeError: Cannot read properties/);
      expect(e.stack_trace).toMatch(/otlp-sdk\.test\.ts/);
      const native = await fetch(`${receiver.url}/ingest/errors`, {
        method: 'POST',
        headers: { authorization: `Bearer ${project.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ error_message: e.error_message, stack_trace: e.stack_trace, service: 'native-check' }),
      });
      expect((await native.json()).fingerprint).toBe(e.fingerprint);
    });

    it('the log records read back with levels, trace correlation and attributes', async () => {
      await expect.poll(async () => (await api(`/logs?trace_id=${sent.traceId}`)).logs?.length, { timeout: 15_000 }).toBe(3);
      const logs = (await api(`/logs?trace_id=${sent.traceId}`)).logs;
      const by = (m: string) => logs.find((l: any) => l.message === `${m} (${encoding})`);
      expect(by('cart priced')).toMatchObject({ level: 'info', service, environment: 'staging', span_id: sent.rootId, context: 'checkout-logger' });
      expect(by('cart priced').metadata).toMatchObject({ 'cart.items': 3 });
      expect(by('payment slow')).toMatchObject({ level: 'warn' });
      expect(by('checkout failed')).toMatchObject({ level: 'error' });
    });
  });
});
