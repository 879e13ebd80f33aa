// One behavioural suite (docs/sdk.md) run against each framework adapter. Each
// adapter test builds a real app listening on 127.0.0.1 with the routes
// below; telemetry goes to a local capture server, not the real receiver.
import { afterEach, describe, expect, it } from 'vitest';
import { DevtrailClient } from '../../src/client.js';
import type { RequestTracingOptions } from '../../src/http/request-tracing.js';
import { startCaptureServer, TEST_KEY, type CaptureServer } from './capture-server.js';

export interface AppHandle {
  url: string;
  close(): Promise<void>;
}

/**
 * Builds an app with these routes:
 *   GET  /users/:id  200 {id}; logs 'request logger' with the request-scoped logger (client.logger if untraced),
 *                    then after an await 'ambient logger' with client.logger
 *   POST /echo       200 echoes the JSON body; after an await logs 'posted' with client.logger
 *   GET  /boom       handler throws Error('kaboom'); the app answers 500
 *   GET  /missing    404
 *   GET  /teapot     418
 *   GET  /health     200
 *   GET  /tagged     200; sets the tags tenant=acme and plan=pro with client.setTag during the request
 */
export type AppFactory = (client: DevtrailClient, options: RequestTracingOptions) => Promise<AppHandle>;

export const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

export function runMiddlewareSuite(framework: string, startApp: AppFactory): void {
  describe(`${framework} request tracing (capture server, not the real receiver)`, () => {
    let capture: CaptureServer;
    let client: DevtrailClient;
    let app: AppHandle | undefined;

    async function setup(options: RequestTracingOptions = {}) {
      capture = await startCaptureServer();
      client = new DevtrailClient({
        apiKey: TEST_KEY,
        baseUrl: capture.url,
        service: framework,
        environment: 'test',
        flushIntervalMs: 10,
        onWarning: (m) => {
          throw new Error(`unexpected SDK warning: ${m}`);
        },
      });
      app = await startApp(client, options);
      return app.url;
    }

    const spans = () => capture.bodies('/ingest/traces');
    async function settle(predicate: () => boolean) {
      await capture.waitFor(() => predicate());
      await client.flush();
    }

    afterEach(async () => {
      await app?.close();
      await client?.close();
      await capture?.close();
      app = undefined;
    });

    it('creates one span per request named {METHOD} {route} and sets x-trace-id / x-span-id', async () => {
      const url = await setup();
      const res = await fetch(`${url}/users/42?expand=1`);
      expect(res.status).toBe(200);
      await settle(() => spans().length === 1);
      const [span] = spans();
      // Named by the route, so /users/42 and /users/43 are one operation; the path stays an attribute.
      expect(span).toMatchObject({ service: framework, environment: 'test', operation: 'GET /users/:id', status: 'ok', parent_span_id: '' });
      expect(span.metadata).toMatchObject({ 'http.request.method': 'GET', 'url.path': '/users/42', 'http.route': '/users/:id', 'http.response.status_code': 200 });
      expect(res.headers.get('x-trace-id')).toBe(span.trace_id);
      expect(res.headers.get('x-span-id')).toBe(span.span_id);
      expect(span.trace_id).toMatch(/^[0-9a-f]{32}$/);
    });

    it('joins the caller trace from traceparent and correlates request-scoped and ambient logs', async () => {
      const url = await setup();
      const res = await fetch(`${url}/users/7`, {
        headers: { traceparent: `00-${TRACE}-${PARENT}-01`, 'x-request-id': 'req-123' },
      });
      expect(res.headers.get('x-trace-id')).toBe(TRACE);
      await settle(() => spans().length === 1 && capture.logs().length === 2);
      const [span] = spans();
      expect(span).toMatchObject({ trace_id: TRACE, parent_span_id: PARENT });
      expect(span.span_id).not.toBe(PARENT);
      const logs = capture.logs();
      expect(logs.map((l) => l.message).sort()).toEqual(['ambient logger', 'request logger']);
      for (const log of logs) expect(log).toMatchObject({ trace_id: TRACE, span_id: span.span_id, request_id: 'req-123' });
    });

    it('falls back to x-trace-id / x-span-id', async () => {
      const url = await setup();
      await fetch(`${url}/users/1`, { headers: { 'x-trace-id': TRACE, 'x-span-id': PARENT } });
      await settle(() => spans().length === 1);
      expect(spans()[0]).toMatchObject({ trace_id: TRACE, parent_span_id: PARENT });
    });

    it('keeps the request context through body parsing and awaits', async () => {
      const url = await setup();
      const res = await fetch(`${url}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: `00-${TRACE}-${PARENT}-01` },
        body: JSON.stringify({ hello: 'world' }),
      });
      expect(await res.json()).toEqual({ hello: 'world' });
      await settle(() => spans().length === 1 && capture.logs().length === 1);
      expect(capture.logs()[0]).toMatchObject({ message: 'posted', trace_id: TRACE, span_id: spans()[0].span_id });
      expect(spans()[0].operation).toBe('POST /echo');
    });

    it('does not mix contexts between concurrent requests', async () => {
      const url = await setup();
      const traces = Array.from({ length: 6 }, (_, i) => `${String(i + 1).repeat(32)}`.slice(0, 32));
      await Promise.all(traces.map((t) => fetch(`${url}/users/${t.slice(0, 4)}`, { headers: { traceparent: `00-${t}-${PARENT}-01` } })));
      await settle(() => spans().length === 6 && capture.logs().length === 12);
      for (const log of capture.logs()) {
        const span = spans().find((s) => s.span_id === log.span_id);
        expect(span?.trace_id).toBe(log.trace_id);
      }
      expect(new Set(capture.logs().map((l) => l.trace_id))).toEqual(new Set(traces));
    });

    it('marks 5xx responses as errors and reports the thrown error with the trace id', async () => {
      const url = await setup();
      const res = await fetch(`${url}/boom`, { headers: { traceparent: `00-${TRACE}-${PARENT}-01` } });
      expect(res.status).toBe(500);
      await settle(() => spans().length === 1 && capture.bodies('/ingest/errors').length === 1);
      expect(spans()[0]).toMatchObject({ operation: 'GET /boom', status: 'error', metadata: { 'http.response.status_code': 500 } });
      const [report] = capture.bodies('/ingest/errors');
      expect(report).toMatchObject({ error_message: 'kaboom', trace_id: TRACE, severity: 'high', context: { span_id: spans()[0].span_id } });
      expect(report.stack_trace).toContain('kaboom');
      expect(res.headers.get('x-trace-id')).toBe(TRACE);
    });

    it('leaves 4xx spans ok by default (OpenTelemetry server convention)', async () => {
      const url = await setup();
      await fetch(`${url}/missing`);
      await settle(() => spans().length === 1);
      expect(spans()[0]).toMatchObject({ operation: 'GET /missing', status: 'ok', metadata: { 'http.response.status_code': 404 } });
    });

    it('moves the error cutoff with errorStatusCode', async () => {
      const url = await setup({ errorStatusCode: 400 });
      await fetch(`${url}/teapot`);
      await fetch(`${url}/health`);
      await settle(() => spans().length === 2);
      const byOp = Object.fromEntries(spans().map((s) => [s.operation, s.status]));
      expect(byOp).toEqual({ 'GET /teapot': 'error', 'GET /health': 'ok' });
    });

    it('skips ignorePaths entirely (prefix match)', async () => {
      const url = await setup({ ignorePaths: ['/health', '/users/9'] });
      const ignored = await fetch(`${url}/health`);
      const ignoredToo = await fetch(`${url}/users/99`);
      expect(ignored.headers.get('x-trace-id')).toBeNull();
      expect(ignoredToo.headers.get('x-trace-id')).toBeNull();
      await fetch(`${url}/users/1`);
      await settle(() => spans().length === 1);
      await delay(50);
      expect(spans().map((s) => s.operation)).toEqual(['GET /users/:id']);
      // logs of ignored requests are still sent, just without trace ids
      expect(capture.logs().filter((l) => l.trace_id === undefined)).toHaveLength(2);
    });

    it('keeps an unsampled caller unsampled: the flag goes on as 00 and no span is sent', async () => {
      const url = await setup();
      const res = await fetch(`${url}/users/3`, { headers: { traceparent: `00-${TRACE}-${PARENT}-00` } });
      expect(res.headers.get('x-trace-id')).toBe(TRACE);
      const seen = await (await fetch(`${url}/users/4`)).text(); // a sampled request after it, to know the first was flushed
      expect(seen).toContain('4');
      await settle(() => spans().length === 1 && capture.logs().length === 4);
      expect(spans().map((s) => s.trace_id)).not.toContain(TRACE);
      // Its logs still carry the trace id: sampling decides spans, not correlation.
      expect(capture.logs().filter((l) => l.trace_id === TRACE)).toHaveLength(2);
    });

    it("puts tags set during the request on the request's span", async () => {
      const url = await setup();
      await fetch(`${url}/tagged`);
      await settle(() => spans().length === 1);
      expect(spans()[0].metadata).toMatchObject({ tenant: 'acme', plan: 'pro' });
      expect(spans()[0].operation).toBe('GET /tagged');
    });

    it('names spans with operationName', async () => {
      const url = await setup({ operationName: (method, path) => `${method.toLowerCase()}:${path.split('/')[1]}` });
      await fetch(`${url}/users/5`);
      await settle(() => spans().length === 1);
      expect(spans()[0].operation).toBe('get:users');
    });
  });
}
