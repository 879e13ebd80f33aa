// What an instrumented checkout handler emits through the real OpenTelemetry JS SDK and
// its OTLP/HTTP exporters (protobuf or JSON): nested spans, a GenAI call, a recorded
// exception and logs. Used by the OTLP end-to-end and browser tests.
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

export interface Sent {
  traceId: string;
  rootId: string;
  dbId: string;
  llmId: string;
}

/** What an instrumented checkout handler would emit: nested spans, a GenAI call, an exception, logs. */
export async function emitCheckout(service: string, encoding: 'protobuf' | 'json', baseUrl: string, key: string): Promise<{ sent: Sent; results: ExportResult[] }> {
  const headers = { authorization: `Bearer ${key}` };
  const resource = resourceFromAttributes({
    'service.name': service,
    'deployment.environment.name': 'staging',
    'service.version': `${encoding}-1.0.0`,
    'host.name': 'test-host',
  });
  const results: ExportResult[] = [];
  const spanExporter =
    encoding === 'protobuf'
      ? new ProtoTraceExporter({ url: `${baseUrl}/v1/traces`, headers, compression: 'gzip' as never })
      : new JsonTraceExporter({ url: `${baseUrl}/v1/traces`, headers });
  const logExporter =
    encoding === 'protobuf'
      ? new ProtoLogExporter({ url: `${baseUrl}/v1/logs`, headers })
      : new JsonLogExporter({ url: `${baseUrl}/v1/logs`, headers, compression: 'gzip' as never });
  const tracerProvider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(recording<ReadableSpan>(spanExporter, results) as SpanExporter)] });
  const loggerProvider = new LoggerProvider({
    resource,
    processors: [new SimpleLogRecordProcessor({ exporter: recording<ReadableLogRecord>(logExporter, results) as LogRecordExporter })],
  });
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
