import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, pipeline, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, stackUp } from '../support/stack.ts';
import { prepareNextApp, startNextApp, type NextServer } from '../support/next-app.ts';

// A real Next.js app (app router, test/fixtures/next-app), built with `next build` and
// served by `next start`, instrumented as Next.js documents it (instrumentation.ts with
// @vercel/otel, whose OTLP exporters point at devtrail with a dt_ key) and with
// @devtrail/sdk/next's withRouteHandler on one route. Its request spans, its logs and its
// error arrive in devtrail and read back through the read API.
const up = await stackUp();

describe.skipIf(!up)(`Next.js app -> OTLP -> devtrail${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let receiver: ServiceProcess;
  let dashboard: ServiceProcess;
  let next: NextServer;
  let project: { id: string; key: string };
  const api = async (path: string) => (await apiGet(dashboard, p.operatorToken, `/api/projects/${project.id}${path}`)).body;

  beforeAll(async () => {
    const build = await prepareNextApp();
    console.log(build.built ? `next build took ${build.buildMs} ms` : 'next build: cached .next is current');
    p = await pipeline();
    receiver = await p.start('receiver');
    await p.start('consumers');
    dashboard = await p.start('dashboard');
    const created = JSON.parse((await p.cli(['project', 'create', 'next', '--json'], dashboard)).stdout);
    project = { id: created.project.id, key: created.api_key };
    next = await startNextApp({
      // The standard OpenTelemetry exporter variables: all a Next.js app needs to send to devtrail.
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${project.key}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=e2e,service.version=fixture-1',
      // Export within a second instead of the batch processors' default 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '300',
      OTEL_BLRP_SCHEDULE_DELAY: '300',
      // @devtrail/sdk/next (withRouteHandler, getNextClient) reads these.
      DEVTRAIL_API_KEY: project.key,
      DEVTRAIL_BASE_URL: receiver.url,
      DEVTRAIL_SERVICE: 'next-fixture',
    });
  }, 900_000);
  afterAll(async () => {
    await next?.stop();
    await p?.close();
  });

  it('serves the logging route and the throwing route', async () => {
    const hello = await fetch(`${next.url}/api/hello?name=ann`);
    expect(hello.status).toBe(200);
    expect(await hello.json()).toEqual({ hello: 'ann' });
    const boom = await fetch(`${next.url}/api/boom`);
    expect(boom.status).toBe(500);
  });

  it("Next.js's request spans arrive as spans of the app's service", async () => {
    const ops = async () => ((await api('/spans?limit=500')).spans ?? []).filter((s: any) => s.service === 'next-fixture');
    await expect.poll(async () => (await ops()).map((s: any) => s.operation), { timeout: 30_000 }).toEqual(expect.arrayContaining(['GET /api/hello', 'GET /api/boom']));
    const spans = await ops();
    // Next.js's own span (OTLP) carries a span kind; the SDK's native span does not.
    const hello = spans.find((s: any) => s.operation === 'GET /api/hello' && s.metadata['otel.span_kind']);
    expect(hello).toMatchObject({ environment: 'e2e', release: 'fixture-1', parent_span_id: '', status: 'ok' });
    expect(hello.metadata).toMatchObject({ 'otel.span_kind': 'server', 'http.method': 'GET' });
    const boom = spans.find((s: any) => s.operation === 'GET /api/boom' && s.metadata['otel.span_kind']);
    expect(boom.status).toBe('error');
    // Next.js's inner spans (route execution) are children in the same trace.
    const trace = (await api(`/traces/${hello.trace_id}`)).spans;
    expect(trace.length).toBeGreaterThan(1);
    expect(trace.filter((s: any) => s.parent_span_id !== '').every((s: any) => trace.some((t: any) => t.span_id === s.parent_span_id))).toBe(true);
    // @devtrail/sdk/next's withRouteHandler span joined the same trace. It is batched (sent within
    // the SDK's flush interval, docs/sdk.md#delivery-what-is-sent-retried-and-dropped), so it may come after Next.js's own.
    const sdkSpanOf = async () =>
      ((await api(`/traces/${hello.trace_id}`)).spans ?? []).find((s: any) => s.operation === 'GET /api/hello' && !s.metadata['otel.span_kind']);
    await expect.poll(sdkSpanOf, { timeout: 15_000 }).toBeDefined();
    const sdkSpan = await sdkSpanOf();
    expect(sdkSpan.parent_span_id).not.toBe('');
  }, 90_000);

  it("the route's OpenTelemetry logs arrive with their level and the request's trace id", async () => {
    await expect.poll(async () => ((await api('/logs?service=next-fixture')).logs ?? []).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const logs = (await api('/logs?service=next-fixture')).logs;
    const hello = logs.find((l: any) => l.message === 'hello ann from next');
    expect(hello).toMatchObject({ level: 'info', environment: 'e2e', context: 'next-fixture-routes', metadata: expect.objectContaining({ 'greeting.name': 'ann' }) });
    expect(logs.find((l: any) => l.message === 'greeting ann took the slow path')).toMatchObject({ level: 'warn', trace_id: hello.trace_id });
    const spans = (await api(`/traces/${hello.trace_id}`)).spans;
    expect(spans.map((s: any) => s.operation)).toContain('GET /api/hello');
    // The SDK's logger (native /ingest/logs) in the same trace.
    await expect
      .poll(async () => ((await api(`/logs?trace_id=${hello.trace_id}`)).logs ?? []).map((l: any) => l.message), { timeout: 15_000 })
      .toContain('sdk says hello to ann');
  });

  it("the thrown error arrives as an error report in the failing request's trace", async () => {
    const mine = async () => ((await api('/errors?limit=100')).errors ?? []).filter((e: any) => e.error_message === 'order total missing in next route');
    await expect.poll(async () => (await mine()).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const errors = await mine();
    // Once: from the "exception" event Next.js records on its span.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ error_type: 'TypeError', service: 'next-fixture', severity: 'high', environment: 'e2e', release: 'fixture-1' });
    expect(errors[0].stack_trace).toMatch(/^TypeError: order total missing in next route\n\s+at /);
    const boomSpan = ((await api('/spans?limit=500')).spans ?? []).find((s: any) => s.operation === 'GET /api/boom');
    expect(errors[0].trace_id).toBe(boomSpan.trace_id);
  });
});
