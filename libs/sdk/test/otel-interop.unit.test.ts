// An app that already runs the OpenTelemetry SDK (docs/sdk.md#opentelemetry): devtrail's logs,
// errors and LLM records join OTel's active trace, and OTel's spans are exported to devtrail
// through createSpanExporter. The real OTel API and trace SDK; delivery to a capture server (NOT
// the real receiver).
import { AsyncLocalStorage } from 'node:async_hooks';
import { context, ROOT_CONTEXT, trace, type Context, type ContextManager } from '@opentelemetry/api';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, createSpanExporter } from '../src/index.js';
import { startCaptureServer, TEST_KEY, type CaptureServer } from './helpers/capture-server.js';

/** OTel's AsyncLocalStorage context manager in a few lines (the package is not a dependency here). */
class AlsContextManager implements ContextManager {
  private readonly als = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.als.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.als.run(ctx, () => fn.apply(thisArg, args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    return this;
  }
}

let capture: CaptureServer;
beforeAll(async () => {
  capture = await startCaptureServer();
  context.setGlobalContextManager(new AlsContextManager());
});
afterAll(async () => {
  context.disable();
  trace.disable();
  await capture.close();
});

it("joins OpenTelemetry's active trace and exports OTel's spans to devtrail", async () => {
  const client = createClient({ apiKey: TEST_KEY, baseUrl: capture.url, service: 'otel-app', flushIntervalMs: 10 });
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(createSpanExporter(client))] });
  trace.setGlobalTracerProvider(provider);
  let ids = { traceId: '', spanId: '' };
  await trace.getTracer('checkout').startActiveSpan('POST /checkout', async (span) => {
    ids = span.spanContext();
    await new Promise((r) => setTimeout(r, 1));
    client.logger.info('inside an OTel span');
    client.captureError(new Error('card declined'));
    client.llmUsage({ model: 'm', provider: 'p', operation: 'chat', inputTokens: 1, outputTokens: 1, latencyMs: 1 });
    span.end();
  });
  await client.close();
  expect(capture.logs()[0]).toMatchObject({ message: 'inside an OTel span', trace_id: ids.traceId, span_id: ids.spanId });
  expect(capture.bodies('/ingest/errors')[0]).toMatchObject({ error_message: 'card declined', trace_id: ids.traceId });
  expect(capture.bodies('/ingest/llm')[0].metadata).toMatchObject({ trace_id: ids.traceId, span_id: ids.spanId });
  expect(capture.bodies('/ingest/traces')[0]).toMatchObject({
    operation: 'POST /checkout',
    trace_id: ids.traceId,
    span_id: ids.spanId,
    metadata: { 'otel.scope': 'checkout' },
  });
});
