// The SDK against the REAL devtrail pipeline: the receiver, consumers and
// dashboard run as separate processes (test/support/processes.ts) on the real local
// Kafka, ClickHouse and PostgreSQL. In this process, an Express app
// (@devtrail/sdk/express) calls a Fastify app (@devtrail/sdk/fastify) with the
// SDK's trace headers. Both apps are imported by package name, so this tests the
// built package (dist) that users get. Their spans, logs, errors and LLM usage go
// through receiver -> Kafka -> consumers -> ClickHouse and are read back through the
// dashboard's read API. The unit tests next to this file use a capture server instead.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiGet, pipeline, type Pipeline, type ServiceProcess } from '../../../test/support/processes.ts';
import { ensureBuilt } from './helpers/built-package.js';
import { unbatch } from './helpers/unbatch.js';
import { NO_STACK_REASON, stackUp } from '../../../test/support/stack.ts';

type Sdk = typeof import('@devtrail/sdk');
type SdkExpress = typeof import('@devtrail/sdk/express');
type SdkFastify = typeof import('@devtrail/sdk/fastify');
type Client = InstanceType<Sdk['DevtrailClient']>;

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** One call the SDK made to the receiver, as the receiver answered it. */
interface IngestCall {
  path: string;
  body: any;
  status: number;
  response: any;
  retryAfter: string | null;
  /** When the request was sent, and when its answer had been read. */
  at: number;
  answeredAt: number;
}

/** The SDK's fetch option: the global fetch, recording every request and the receiver's answer. */
function recordingFetch(calls: IngestCall[], extraHeaders: Record<string, string> = {}): typeof fetch {
  return (async (url: string | URL | Request, init: RequestInit = {}) => {
    const at = Date.now();
    const res = await fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), ...extraHeaders } });
    const text = await res.clone().text();
    let response: any = text;
    try {
      response = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    calls.push({
      path: new URL(String(url)).pathname,
      body: JSON.parse(String(init.body)),
      status: res.status,
      response,
      retryAfter: res.headers.get('retry-after'),
      at,
      answeredAt: Date.now(),
    });
    return res;
  }) as typeof fetch;
}

const NO_DROPS = { dropped: 0, droppedQueueFull: 0, droppedRejected: 0, droppedRetriesExhausted: 0, droppedAfterClose: 0 };
/** Within a few seconds of close() (the consumers write every 500 ms here). */
const READ_TIMEOUT_MS = 10_000;

const up = await stackUp();

describe.skipIf(!up)(`SDK through the real pipeline: Express -> Fastify${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let sdk: Sdk;
  let sdkExpress: SdkExpress;
  let sdkFastify: SdkFastify;
  let p: Pipeline;
  let receiver: ServiceProcess;
  let dashboard: ServiceProcess;
  let project: { id: string; key: string };
  const api = (path: string) => apiGet(dashboard, p.operatorToken, `/api/projects/${project.id}${path}`);
  const createProject = async (name: string, ...args: string[]) => {
    const out = await p.cli(['project', 'create', name, '--json', ...args], dashboard);
    expect(out.code, out.stderr).toBe(0);
    const created = JSON.parse(out.stdout);
    return { id: created.project.id as string, key: created.api_key as string };
  };
  const client = (options: Parameters<Sdk['createClient']>[0] & { calls?: IngestCall[]; warnings?: string[]; originHeader?: string }) => {
    const { calls = [], warnings = [], originHeader, ...rest } = options;
    return sdk.createClient({
      baseUrl: receiver.url,
      // The records counted here are the app's; sessions are release-health.test.ts's.
      autoSessionTracking: false,
      fetch: recordingFetch(calls, originHeader ? { origin: originHeader } : {}),
      onWarning: (m) => warnings.push(m),
      ...rest,
    });
  };

  // Started in beforeAll, awaited by its own test at the end: the receiver's
  // Retry-After runs to the end of the current minute (up to 60 s), so the wait
  // overlaps the other tests instead of adding to them.
  let rateLimited: Promise<{ calls: IngestCall[]; warnings: string[]; stats: ReturnType<Client['stats']>; delivered: boolean }>;

  beforeAll(async () => {
    await ensureBuilt();
    // Specifiers in variables: vite must not resolve them before ensureBuilt() made dist/
    // (a clean clone has none).
    const entries = ['@devtrail/sdk', '@devtrail/sdk/express', '@devtrail/sdk/fastify'];
    [sdk, sdkExpress, sdkFastify] = (await Promise.all(entries.map((e) => import(/* @vite-ignore */ e)))) as [Sdk, SdkExpress, SdkFastify];
    p = await pipeline();
    receiver = await p.start('receiver');
    await p.start('consumers');
    dashboard = await p.start('dashboard');
    project = await createProject('sdk-two-services');

    const limited = await createProject('sdk-rate-limited', '--rate-limit', '1');
    rateLimited = (async () => {
      // Both reports must fall into one rate-limit window (fixed, per minute).
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 57_000) await delay(60_500 - intoMinute);
      const calls: IngestCall[] = [];
      const warnings: string[] = [];
      const c = client({ apiKey: limited.key, service: 'limited', calls, warnings });
      c.captureError(new Error('first, within the limit'));
      c.captureError(new Error('second, over the limit'));
      const delivered = await c.flush(75_000);
      const stats = c.stats();
      await c.close();
      return { calls, warnings, stats, delivered };
    })();
    rateLimited.catch(() => {}); // awaited (and reported) by its test
  }, 180_000);

  afterAll(async () => p?.close());

  // ---- the two-service scenario ------------------------------------------------

  const traceId = hex(16);
  const callerSpanId = hex(8);
  const requestId = `req-${hex(6)}`;
  const release = `sdk-it-${hex(3)}`;
  const environment = 'integration';
  const feCalls: IngestCall[] = [];
  const beCalls: IngestCall[] = [];
  const feWarnings: string[] = [];
  const beWarnings: string[] = [];
  const seen = {
    checkout: { status: 0, traceId: '', spanId: '', body: {} as any },
    explode: [] as Array<{ status: number; traceId: string; spanId: string }>,
    llmSpanId: '',
  };

  it('runs an Express app that calls a Fastify app with the SDK trace headers; both SDK clients deliver everything', async () => {
    const frontend = client({ apiKey: project.key, service: 'frontend', environment, release, calls: feCalls, warnings: feWarnings, flushIntervalMs: 200 });
    const backend = client({ apiKey: project.key, service: 'backend', environment, release, calls: beCalls, warnings: beWarnings, flushIntervalMs: 200 });

    // backend: Fastify with the plugin; logs after an await, reports a low-severity error.
    const be: FastifyInstance = Fastify();
    await be.register(sdkFastify.devtrailFastify, { client: backend });
    be.get('/price', async () => {
      await delay(5);
      backend.logger.info('pricing', { sku: 'A-1' });
      backend.captureError(new Error('price warning'), { severity: 'low', context: { sku: 'A-1' } });
      return { cents: 999 };
    });
    await be.listen({ port: 0, host: '127.0.0.1' });
    const backendUrl = `http://127.0.0.1:${(be.server.address() as AddressInfo).port}`;

    // frontend: Express with the middleware and the error handler.
    const app = express();
    app.use(sdkExpress.devtrailExpress(frontend));
    app.get('/checkout', async (req, res) => {
      sdkExpress.getRequestTelemetry(req)!.logger.info('checkout started', { items: 3 });
      await frontend.startSpan('llm.call', async (span) => {
        seen.llmSpanId = span.spanId;
        await delay(5);
        frontend.llmUsage({
          model: 'gpt-4o-mini',
          provider: 'openai',
          operation: 'chat.completion',
          inputTokens: 1200,
          outputTokens: 300,
          latencyMs: 950,
          costUsd: 0.0042,
        });
        frontend.logger.info('llm answered');
      });
      // The request's span is active again here, so it becomes the backend span's parent.
      const r = await fetch(`${backendUrl}/price`, { headers: frontend.traceHeaders() });
      const price = await r.json();
      frontend.child('checkout').info('priced', { cents: price.cents });
      res.json({ ...price, backend: { status: r.status, traceId: r.headers.get('x-trace-id'), spanId: r.headers.get('x-span-id') } });
    });
    app.get('/explode', () => {
      throw new Error('checkout exploded');
    });
    app.use(sdkExpress.devtrailErrorHandler(frontend));
    app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).json({ error: err.message });
    });
    const server: Server = await new Promise((ok) => {
      const s = app.listen(0, '127.0.0.1', () => ok(s));
    });
    const frontendUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    try {
      const r = await fetch(`${frontendUrl}/checkout`, { headers: { traceparent: `00-${traceId}-${callerSpanId}-01`, 'x-request-id': requestId } });
      seen.checkout = { status: r.status, traceId: r.headers.get('x-trace-id')!, spanId: r.headers.get('x-span-id')!, body: await r.json() };
      for (let i = 0; i < 2; i++) {
        const e = await fetch(`${frontendUrl}/explode`);
        await e.text();
        seen.explode.push({ status: e.status, traceId: e.headers.get('x-trace-id')!, spanId: e.headers.get('x-span-id')! });
      }
    } finally {
      // Servers first, so every span has ended before the clients close.
      await new Promise((ok) => server.close(ok));
      await be.close();
    }
    expect(await frontend.close()).toBe(true);
    expect(await backend.close()).toBe(true);

    expect(seen.checkout.status).toBe(200);
    expect(seen.checkout.body).toMatchObject({ cents: 999, backend: { status: 200, traceId } });
    // x-trace-id on both responses is the caller's trace.
    expect(seen.checkout.traceId).toBe(traceId);
    expect(seen.checkout.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(seen.checkout.body.backend.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(seen.explode.map((e) => e.status)).toEqual([500, 500]);
    expect(new Set(seen.explode.map((e) => e.traceId)).size).toBe(2); // no incoming context: a new trace each time
    expect(seen.explode.map((e) => e.traceId)).not.toContain(traceId);

    // The receiver accepted every request the SDK made, with the documented answers.
    expect(feWarnings).toEqual([]);
    expect(beWarnings).toEqual([]);
    // Every request is a batch (docs/api.md#batch), answered with the number of records it carried.
    const records = (body: any) => ['logs', 'errors', 'spans', 'llm'].reduce((n, s) => n + (body[s]?.length ?? 0), 0);
    for (const c of [...feCalls, ...beCalls]) {
      expect(c.status, `${c.path}: ${JSON.stringify(c.response)}`).toBe(200);
      expect(c.path).toBe('/ingest/batch');
      expect(c.response).toEqual({ ok: true, count: records(c.body), rejected: 0 });
    }
    const count = (calls: IngestCall[], path: string) =>
      unbatch(
        calls.map((c) => c.body),
        path,
      ).reduce((n, b) => n + (path === '/ingest/logs' ? b.logs.length : 1), 0);
    // frontend: 3 logs, 2 errors, 4 spans (GET /checkout, llm.call, GET /explode x2), 1 LLM record.
    expect([count(feCalls, '/ingest/logs'), count(feCalls, '/ingest/errors'), count(feCalls, '/ingest/traces'), count(feCalls, '/ingest/llm')]).toEqual([3, 2, 4, 1]);
    // backend: 1 log, 1 error, 1 span.
    expect([count(beCalls, '/ingest/logs'), count(beCalls, '/ingest/errors'), count(beCalls, '/ingest/traces'), count(beCalls, '/ingest/llm')]).toEqual([1, 1, 1, 0]);
    expect(frontend.stats()).toMatchObject({ queued: 0, inFlight: 0, sent: 10, retried: 0, ...NO_DROPS });
    expect(backend.stats()).toMatchObject({ queued: 0, inFlight: 0, sent: 3, retried: 0, ...NO_DROPS });
    // Every record carries the envelope the client was configured with.
    for (const c of feCalls) expect(c.body).toMatchObject({ service: 'frontend', environment, release });
    for (const c of beCalls) expect(c.body).toMatchObject({ service: 'backend', environment, release });
  }, 30_000);

  it("stores both services' spans in one trace: the Fastify span's parent is the Express span", async () => {
    const t0 = Date.now();
    await expect.poll(async () => (await api(`/traces/${traceId}`)).body.spans?.length ?? 0, { timeout: READ_TIMEOUT_MS, interval: 200 }).toBe(3);
    console.log(`[sdk-real-pipeline] checkout trace readable ${Date.now() - t0} ms after the clients closed`);
    const { body } = await api(`/traces/${traceId}`);
    expect(body.trace_id).toBe(traceId);
    const spans: any[] = body.spans;
    const byOp = (op: string) => spans.filter((s) => s.operation === op);
    expect(spans.map((s) => s.operation).sort()).toEqual(['GET /checkout', 'GET /price', 'llm.call']);
    const [front] = byOp('GET /checkout');
    const [llm] = byOp('llm.call');
    const [back] = byOp('GET /price');

    for (const s of spans) {
      expect(s.trace_id).toBe(traceId);
      expect(s).toMatchObject({ environment, release, status: 'ok' });
      expect(Number.isInteger(s.duration_ms) && s.duration_ms >= 0).toBe(true);
      expect(s.start_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    // Express server span: joined the caller's trace, under the caller's span.
    expect(front).toMatchObject({ service: 'frontend', span_id: seen.checkout.spanId, parent_span_id: callerSpanId });
    expect(front.metadata).toMatchObject({
      'http.request.method': 'GET',
      'url.path': '/checkout',
      'http.route': '/checkout',
      'http.response.status_code': 200,
      request_id: requestId,
    });
    expect(llm).toMatchObject({ service: 'frontend', span_id: seen.llmSpanId, parent_span_id: front.span_id });
    // Fastify server span: same trace, child of the Express span (traceparent propagation).
    expect(back).toMatchObject({ service: 'backend', span_id: seen.checkout.body.backend.spanId, parent_span_id: front.span_id });
    expect(back.metadata).toMatchObject({
      'http.request.method': 'GET',
      'url.path': '/price',
      'http.route': '/price',
      'http.response.status_code': 200,
      request_id: requestId,
    });
    // The parent starts first and lasts at least as long as the call it made.
    expect(Date.parse(front.start_time)).toBeLessThanOrEqual(Date.parse(back.start_time));
    expect(front.duration_ms).toBeGreaterThanOrEqual(back.duration_ms);

    // /explode: a span with status error in its own trace.
    for (const e of seen.explode) {
      await expect.poll(async () => (await api(`/traces/${e.traceId}`)).body.spans?.length ?? 0, { timeout: READ_TIMEOUT_MS, interval: 200 }).toBe(1);
      const [s] = (await api(`/traces/${e.traceId}`)).body.spans;
      expect(s).toMatchObject({ operation: 'GET /explode', span_id: e.spanId, parent_span_id: '', status: 'error', service: 'frontend' });
      expect(s.metadata).toMatchObject({ 'http.response.status_code': 500, 'error.type': 'Error', 'error.message': 'checkout exploded' });
    }
  });

  it('stores every log of the request with its trace, span and request ids', async () => {
    await expect.poll(async () => (await api(`/logs?trace_id=${traceId}`)).body.logs?.length ?? 0, { timeout: READ_TIMEOUT_MS, interval: 200 }).toBe(4);
    const logs: any[] = (await api(`/logs?trace_id=${traceId}`)).body.logs;
    const byMessage = Object.fromEntries(logs.map((l) => [l.message, l]));
    expect(Object.keys(byMessage).sort()).toEqual(['checkout started', 'llm answered', 'priced', 'pricing']);
    const frontSpan = seen.checkout.spanId;
    const backSpan = seen.checkout.body.backend.spanId;
    for (const l of logs) expect(l).toMatchObject({ trace_id: traceId, request_id: requestId, level: 'info', environment, release });
    expect(byMessage['checkout started']).toMatchObject({ service: 'frontend', span_id: frontSpan, context: '', metadata: { items: 3 } });
    expect(byMessage['llm answered']).toMatchObject({ service: 'frontend', span_id: seen.llmSpanId });
    expect(byMessage['priced']).toMatchObject({ service: 'frontend', span_id: frontSpan, context: 'checkout', metadata: { cents: 999 } });
    // Written with client.logger after an await in the Fastify handler: AsyncLocalStorage kept
    // the request's context, and x-request-id came over with traceHeaders().
    expect(byMessage['pricing']).toMatchObject({ service: 'backend', span_id: backSpan, metadata: { sku: 'A-1' } });
  });

  it('stores the errors with their trace ids, severities and real stacks; identical reports group', async () => {
    await expect.poll(async () => (await api('/errors')).body.errors?.length ?? 0, { timeout: READ_TIMEOUT_MS, interval: 200 }).toBe(3);
    const errors: any[] = (await api('/errors')).body.errors;

    const [warning] = errors.filter((e) => e.error_message === 'price warning');
    expect(warning).toMatchObject({ service: 'backend', severity: 'low', error_type: 'Error', trace_id: traceId, environment, release });
    expect(warning.context).toMatchObject({ sku: 'A-1', span_id: seen.checkout.body.backend.spanId, request_id: requestId });
    expect(warning.stack_trace).toMatch(/^Error: price warning\n\s+at /);

    const exploded = errors.filter((e) => e.error_message === 'checkout exploded');
    expect(exploded).toHaveLength(2);
    expect(exploded.map((e) => e.trace_id).sort()).toEqual(seen.explode.map((e) => e.traceId).sort());
    for (const e of exploded) {
      expect(e).toMatchObject({ service: 'frontend', severity: 'high', error_type: 'Error' });
      expect(e.stack_trace).toMatch(/^Error: checkout exploded\n\s+at .*integration-real-pipeline\.test\.ts/);
      const own = seen.explode.find((x) => x.traceId === e.trace_id)!;
      expect(e.context).toMatchObject({ span_id: own.spanId });
    }
    expect(exploded[0].fingerprint).toBe(exploded[1].fingerprint);
    expect(warning.fingerprint).not.toBe(exploded[0].fingerprint);

    await expect.poll(async () => (await api('/error-groups')).body.groups?.length ?? 0, { timeout: READ_TIMEOUT_MS, interval: 200 }).toBe(2);
    const groups: any[] = (await api('/error-groups')).body.groups;
    expect(groups.find((g) => g.fingerprint === exploded[0].fingerprint)).toMatchObject({ count: 2, max_severity: 'high', latest: { service: 'frontend', release } });
    expect(groups.find((g) => g.fingerprint === warning.fingerprint)).toMatchObject({ count: 1, max_severity: 'low', latest: { service: 'backend' } });
  });

  it('stores the LLM usage record, tied to the checkout trace', async () => {
    await expect.poll(async () => (await api('/llm-usage')).body.usage?.length ?? 0, { timeout: READ_TIMEOUT_MS, interval: 200 }).toBe(1);
    const [usage] = (await api('/llm-usage')).body.usage;
    expect(usage).toMatchObject({
      model: 'gpt-4o-mini',
      provider: 'openai',
      service: 'frontend',
      calls: 1,
      input_tokens: 1200,
      output_tokens: 300,
      cost_usd: 0.0042,
      latency_p50_ms: 950,
    });
    // The read API aggregates LLM usage, so the record's metadata is checked in ClickHouse.
    const where =
      "JSONExtractString(metadata, 'trace_id') = {trace:String} AND JSONExtractString(metadata, 'span_id') = {span:String} AND JSONExtractString(metadata, 'request_id') = {req:String} AND environment = {env:String} AND operation = 'chat.completion'";
    expect(await p.count('llm', where, { trace: traceId, span: seen.llmSpanId, req: requestId, env: environment })).toBe(1);
  });

  // ---- failure paths against the real receiver ---------------------------------

  it('drops, without retrying, what the receiver rejects with 401 (revoked or malformed key)', async () => {
    const proj = await createProject('sdk-revoked');
    const out = await p.cli(['key', 'revoke', proj.id, '--json'], dashboard);
    expect(out.code, out.stderr).toBe(0);
    const newKey = JSON.parse(out.stdout).api_key;

    for (const apiKey of [proj.key, 'dt_not-a-real-key']) {
      const calls: IngestCall[] = [];
      const warnings: string[] = [];
      const c = client({ apiKey, service: 'revoked', calls, warnings });
      c.logger.info('never stored');
      c.captureError(new Error('never stored'));
      expect(await c.flush(5000)).toBe(true);
      // The error report leaves at once in a request of its own; the log in its batch (docs/sdk.md).
      expect(calls.map((x) => x.status)).toEqual([401, 401]);
      expect(c.stats()).toMatchObject({ sent: 0, retried: 0, dropped: 2, droppedRejected: 2 });
      expect(warnings.join('\n')).toMatch(/HTTP 401 .*not retried/);
      await c.close();
    }
    const fresh = client({ apiKey: newKey, service: 'revoked' });
    fresh.logger.info('stored with the new key');
    await fresh.close();
    expect(fresh.stats()).toMatchObject({ sent: 1, ...NO_DROPS });
    await expect.poll(() => p.count('logs', 'project_id = {p:String}', { p: proj.id }), { timeout: READ_TIMEOUT_MS, interval: 200 }).toBe(1);
  });

  it('drops, without retrying, what the receiver refuses with 403 for an origin outside the allowed list', async () => {
    const proj = await createProject('sdk-origins');
    const out = await p.cli(['origins', 'set', proj.id, 'https://app.example.com', '--json'], dashboard);
    expect(out.code, out.stderr).toBe(0);

    const calls: IngestCall[] = [];
    const warnings: string[] = [];
    const evil = client({ apiKey: proj.key, service: 'web', calls, warnings, originHeader: 'https://evil.example.com' });
    evil.captureError(new Error('from the wrong origin'));
    expect(await evil.flush(5000)).toBe(true);
    expect(calls.map((x) => x.status)).toEqual([403]);
    expect(evil.stats()).toMatchObject({ sent: 0, retried: 0, droppedRejected: 1 });
    expect(warnings.join('\n')).toMatch(/HTTP 403 .*not retried/);
    await evil.close();

    const good = client({ apiKey: proj.key, service: 'web', originHeader: 'https://app.example.com' });
    good.captureError(new Error('from the allowed origin'));
    await good.close();
    expect(good.stats()).toMatchObject({ sent: 1, ...NO_DROPS });
    await expect.poll(() => p.count('errors', 'project_id = {p:String}', { p: proj.id }), { timeout: READ_TIMEOUT_MS, interval: 200 }).toBe(1);
    expect(await p.count('errors', "project_id = {p:String} AND error_message = 'from the wrong origin'", { p: proj.id })).toBe(0);
  });

  it("waits out the receiver's 429 Retry-After, then delivers (started in beforeAll)", async () => {
    const { calls, warnings, stats, delivered } = await rateLimited;
    expect(delivered).toBe(true);
    expect(warnings).toEqual([]);
    expect(stats).toMatchObject({ sent: 2, ...NO_DROPS });
    expect(stats.retried).toBeGreaterThan(0);
    const limited = calls.find((c) => c.status === 429);
    expect(limited, JSON.stringify(calls.map((c) => c.status))).toBeDefined();
    const retryAfterMs = Number(limited!.retryAfter) * 1000;
    expect(retryAfterMs).toBeGreaterThan(0);
    // Nothing was sent after the 429 until Retry-After had passed; then the same report got through.
    const later = calls.filter((c) => c.at >= limited!.answeredAt);
    expect(later.map((c) => [c.status, c.body.errors[0].error_message])).toEqual([[200, limited!.body.errors[0].error_message]]);
    expect(later[0].at - limited!.answeredAt).toBeGreaterThanOrEqual(retryAfterMs - 50);
    expect(
      calls
        .filter((c) => c.status === 200)
        .flatMap((c) => c.body.errors.map((e: any) => e.error_message))
        .sort(),
    ).toEqual(['first, within the limit', 'second, over the limit']);
  }, 90_000);
});
