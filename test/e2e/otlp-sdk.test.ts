import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, trace, SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { LoggerProvider, SimpleLogRecordProcessor, type LogRecordExporter, type ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import type { ExportResult } from '@opentelemetry/core';
import { apiGet, pipeline, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, stackUp } from '../support/stack.ts';

// The real OpenTelemetry JS SDK, with both OTLP/HTTP exporters (protobuf and JSON) for
// traces and logs, sends to the real receiver process; consumers write to ClickHouse; the
// read API shows every mapped field (docs/otlp.md).
const up = await stackUp();

/** Records each export's result, so a refused export fails the test rather than only logging. */
function recording<T>(exporter: { export(items: T[], cb: (r: ExportResult) => void): void; shutdown(): Promise<void> }, results: ExportResult[]) {
  return {
    export: (items: T[], cb: (r: ExportResult) => void) =>
      exporter.export(items, (r) => {
        results.push(r);
        cb(r);
      }),
    shutdown: () => exporter.shutdown(),
    forceFlush: async () => {},
  };
}

interface Sent {
  traceId: string;
  rootId: string;
  dbId: string;
  llmId: string;
}

/** What an instrumented checkout handler would emit: nested spans, a GenAI call, an exception, logs. */
async function emit(service: string, encoding: 'protobuf' | 'json', receiver: ServiceProcess, key: string): Promise<{ sent: Sent; results: ExportResult[] }> {
  const headers = { authorization: `Bearer ${key}` };
  const resource = resourceFromAttributes({ 'service.name': service, 'deployment.environment.name': 'staging', 'service.version': `${encoding}-1.0.0`, 'host.name': 'test-host' });
  const results: ExportResult[] = [];
  const spanExporter =
    encoding === 'protobuf'
      ? new ProtoTraceExporter({ url: `${receiver.url}/v1/traces`, headers, compression: 'gzip' as never })
      : new JsonTraceExporter({ url: `${receiver.url}/v1/traces`, headers });
  const logExporter =
    encoding === 'protobuf'
      ? new ProtoLogExporter({ url: `${receiver.url}/v1/logs`, headers })
      : new JsonLogExporter({ url: `${receiver.url}/v1/logs`, headers, compression: 'gzip' as never });
  const tracerProvider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(recording<ReadableSpan>(spanExporter, results) as SpanExporter)] });
  const loggerProvider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter: recording<ReadableLogRecord>(logExporter, results) as LogRecordExporter })] });
  const tracer = tracerProvider.getTracer('checkout-handler', '3.1.0');
  const logger = loggerProvider.getLogger('checkout-logger');

  const root: Span = tracer.startSpan('GET /checkout', { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'GET', 'http.route': '/checkout' } });
  const inRoot = trace.setSpan(context.active(), root);
  const db = tracer.startSpan('SELECT orders', { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql' } }, inRoot);
  await new Promise((r) => setTimeout(r, 15));
  db.end();
  const llm = tracer.startSpan(
    'chat gpt-4o-mini',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4o-mini',
        'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
        'gen_ai.usage.input_tokens': 1200,
        'gen_ai.usage.output_tokens': 300,
      },
    },
    inRoot,
  );
  await new Promise((r) => setTimeout(r, 25));
  llm.end();
  logger.emit({ severityNumber: SeverityNumber.INFO, severityText: 'INFO', body: `cart priced (${encoding})`, attributes: { 'cart.items': 3 }, context: inRoot });
  logger.emit({ severityNumber: SeverityNumber.WARN, body: `payment slow (${encoding})`, context: inRoot });
  const err = new TypeError(`Cannot read properties of undefined (reading 'total') [${encoding}]`);
  root.recordException(err);
  root.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
  logger.emit({ severityNumber: SeverityNumber.ERROR, severityText: 'ERROR', body: `checkout failed (${encoding})`, context: inRoot });
  root.end();

  await tracerProvider.forceFlush();
  await loggerProvider.forceFlush();
  await tracerProvider.shutdown();
  await loggerProvider.shutdown();
  const ids = (s: Span) => s.spanContext();
  return { sent: { traceId: ids(root).traceId, rootId: ids(root).spanId, dbId: ids(db).spanId, llmId: ids(llm).spanId }, results };
}

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
      const r = await emit(service, encoding, receiver, project.key);
      sent = r.sent;
      // 3 spans + 3 log records, each exported on end (SimpleSpan/LogRecordProcessor).
      expect(r.results).toHaveLength(6);
      expect(r.results.map((x) => [x.code, x.error?.message])).toEqual(Array(6).fill([0, undefined]));
    });

    it('the nested spans read back as one trace with mapped fields', async () => {
      await expect.poll(async () => (await api(`/traces/${sent.traceId}`)).spans?.length, { timeout: 15_000 }).toBe(3);
      const spans = (await api(`/traces/${sent.traceId}`)).spans;
      const byId = (id: string) => spans.find((s: any) => s.span_id === id);
      expect(byId(sent.rootId)).toMatchObject({ operation: 'GET /checkout', parent_span_id: '', status: 'error', service, environment: 'staging', release: `${encoding}-1.0.0` });
      expect(byId(sent.rootId).metadata).toMatchObject({ 'http.route': '/checkout', 'otel.span_kind': 'server', 'otel.scope.name': 'checkout-handler', 'otel.resource': { 'host.name': 'test-host' } });
      expect(byId(sent.dbId)).toMatchObject({ operation: 'SELECT orders', parent_span_id: sent.rootId, status: 'ok' });
      expect(byId(sent.dbId).duration_ms).toBeGreaterThanOrEqual(14);
      expect(byId(sent.llmId)).toMatchObject({ operation: 'chat gpt-4o-mini', parent_span_id: sent.rootId });
    });

    it('the GenAI span reads back as LLM usage', async () => {
      await expect.poll(async () => (await api('/llm-usage')).usage?.filter((u: any) => u.service === service).length, { timeout: 15_000 }).toBe(1);
      const usage = (await api('/llm-usage')).usage.find((u: any) => u.service === service);
      expect(usage).toMatchObject({ model: 'gpt-4o-mini-2024-07-18', provider: 'openai', calls: 1, input_tokens: 1200, output_tokens: 300, cost_usd: 0 });
      // gpt-4o-mini's row of libs/config/data/llm-prices.json: 1200 x 0.15 + 300 x 0.60 per million.
      expect(usage.estimated_cost_usd).toBeCloseTo(0.00036, 10);
      expect(usage.latency_p50_ms).toBeGreaterThanOrEqual(24);
    });

    it('the recorded exception reads back as an error with the native fingerprint and the trace id', async () => {
      const mine = async () => (await api(`/errors?limit=100`)).errors?.filter((e: any) => e.service === service) ?? [];
      await expect.poll(async () => (await mine()).length, { timeout: 15_000 }).toBe(1);
      const [e] = await mine();
      expect(e).toMatchObject({ error_type: 'TypeError', error_message: `Cannot read properties of undefined (reading 'total') [${encoding}]`, severity: 'high', trace_id: sent.traceId, release: `${encoding}-1.0.0` });
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
