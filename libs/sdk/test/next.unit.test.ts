import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as React from 'react';
import { DevtrailErrorBoundary } from '../src/next/react.js';
import {
  createSpanExporter,
  getBrowserClient,
  getNextClient,
  onRequestError,
  register,
  withRouteHandler,
  withServerAction,
  type ReadableSpanLike,
} from '../src/next/index.js';
import { getContextManager } from '../src/context/context-manager.js';
import { bodiesAt, logsIn, makeClient } from './helpers/client.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const OTEL_API = Symbol.for('opentelemetry.js.api.1');
const OTEL_SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');
const NEXT_CLIENT = Symbol.for('devtrail.sdk.next.client');
const BROWSER_CLIENT = Symbol.for('devtrail.sdk.next.browser-client');
const g = globalThis as Record<symbol, unknown>;

// Next.js puts AsyncLocalStorage on globalThis in its Node and edge runtimes;
// the /next entry uses that instead of importing node:async_hooks.
(globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage = AsyncLocalStorage;

/** Pretends an OpenTelemetry API is registered with this span active. */
function fakeOtelActiveSpan(traceId: string, spanId: string) {
  g[OTEL_API] = {
    context: { active: () => ({ getValue: (key: symbol) => (key === OTEL_SPAN_KEY ? { spanContext: () => ({ traceId, spanId, traceFlags: 1 }) } : undefined) }) },
  };
}

afterEach(() => {
  delete g[OTEL_API];
  delete g[NEXT_CLIENT];
  delete g[BROWSER_CLIENT];
  vi.unstubAllEnvs();
});

function otelSpan(overrides: Partial<ReadableSpanLike> = {}): ReadableSpanLike {
  return {
    name: 'GET /api/items',
    kind: 1,
    spanContext: () => ({ traceId: TRACE, spanId: 'aaaaaaaaaaaaaaaa' }),
    startTime: [1_700_000_000, 250_000_000],
    endTime: [1_700_000_000, 290_500_000],
    status: { code: 0 },
    attributes: { 'http.method': 'GET', 'next.span_type': 'BaseServer.handleRequest' },
    instrumentationScope: { name: 'next.js' },
    ...overrides,
  };
}

describe('OpenTelemetry-shaped span exporter', () => {
  it('converts ReadableSpan-like objects to /ingest/traces records', async () => {
    const { client, calls } = makeClient();
    const exporter = createSpanExporter(client);
    const results: unknown[] = [];
    exporter.export(
      [
        otelSpan(),
        otelSpan({
          name: 'render route (app) /items',
          kind: 0,
          spanContext: () => ({ traceId: TRACE, spanId: 'bbbbbbbbbbbbbbbb' }),
          parentSpanContext: { spanId: 'aaaaaaaaaaaaaaaa' }, // SDK 2.x
          duration: [0, 12_400_000],
          status: { code: 2, message: 'render failed' },
          events: [{ name: 'exception', attributes: { 'exception.type': 'TypeError', 'exception.message': 'x is undefined' } }],
        }),
        otelSpan({ spanContext: () => ({ traceId: TRACE, spanId: 'cccccccccccccccc' }), parentSpanId: 'aaaaaaaaaaaaaaaa' }), // SDK 1.x
      ],
      (r) => results.push(r),
    );
    expect(results).toEqual([{ code: 0 }]);
    await exporter.forceFlush();
    const spans = bodiesAt(calls, '/ingest/traces');
    expect(spans[0]).toEqual({
      service: 'checkout',
      environment: 'test',
      release: 'v1',
      trace_id: TRACE,
      span_id: 'aaaaaaaaaaaaaaaa',
      parent_span_id: '',
      operation: 'GET /api/items',
      start_time: new Date(1_700_000_000_250).toISOString(),
      duration_ms: 41,
      status: 'ok',
      metadata: { 'http.method': 'GET', 'next.span_type': 'BaseServer.handleRequest', 'otel.kind': 'server', 'otel.scope': 'next.js' },
    });
    expect(spans[1]).toMatchObject({
      parent_span_id: 'aaaaaaaaaaaaaaaa',
      duration_ms: 12,
      status: 'error',
      metadata: { 'otel.kind': 'internal', 'otel.status_message': 'render failed', 'exception.type': 'TypeError', 'exception.message': 'x is undefined' },
    });
    expect(spans[2].parent_span_id).toBe('aaaaaaaaaaaaaaaa');
  });

  it('filters spans and refuses exports after shutdown', async () => {
    const { client, calls } = makeClient();
    const exporter = createSpanExporter(client, { filter: (s) => !s.name.startsWith('resolve') });
    exporter.export([otelSpan({ name: 'resolve page components' }), otelSpan()], () => {});
    await exporter.shutdown();
    expect(bodiesAt(calls, '/ingest/traces').map((s) => s.operation)).toEqual(['GET /api/items']);
    const after = vi.fn();
    exporter.export([otelSpan()], after);
    expect(after).toHaveBeenCalledWith(expect.objectContaining({ code: 1 }));
  });
});

describe('instrumentation.ts helpers', () => {
  it('register() shares a client and hands the exporter to registerOTel', () => {
    const { client } = makeClient();
    const registerOTel = vi.fn();
    const result = register({ client, registerOTel });
    expect(result.client).toBe(client);
    expect(getNextClient()).toBe(client);
    expect(registerOTel).toHaveBeenCalledWith({ serviceName: 'checkout', traceExporter: result.exporter });
    expect(getContextManager().async).toBe(true); // picked up globalThis.AsyncLocalStorage
  });

  it('register() and onRequestError() are harmless without a key', async () => {
    vi.stubEnv('DEVTRAIL_API_KEY', '');
    const { client } = register();
    expect(client.enabled).toBe(false);
    await expect(onRequestError(new Error('x'), { path: '/', method: 'GET', headers: {} }, {})).resolves.toBeUndefined();
  });

  it('onRequestError reports with the incoming trace and the Next.js route context', async () => {
    const { client, calls } = makeClient();
    register({ client });
    const err = Object.assign(new Error('db down'), { digest: '12345' });
    await onRequestError(
      err,
      {
        path: '/orders/1',
        method: 'GET',
        headers: { traceparent: `00-${TRACE}-${PARENT}-01`, 'x-request-id': 'r-1' },
      },
      { routerKind: 'App Router', routePath: '/orders/[id]', routeType: 'render', renderSource: 'react-server-components' },
    );
    await client.flush();
    const [report] = bodiesAt(calls, '/ingest/errors');
    expect(report).toMatchObject({
      error_message: 'db down',
      severity: 'high',
      trace_id: TRACE,
      context: {
        'http.request.method': 'GET',
        'url.path': '/orders/1',
        request_id: 'r-1',
        digest: '12345',
        'next.router_kind': 'App Router',
        'next.route_path': '/orders/[id]',
        'next.route_type': 'render',
      },
    });
  });

  it('onRequestError prefers the active OpenTelemetry trace and skips redirect/notFound', async () => {
    const { client, calls } = makeClient();
    register({ client });
    fakeOtelActiveSpan('f'.repeat(32), 'e'.repeat(16));
    await onRequestError(new Error('render'), { path: '/', method: 'GET', headers: {} }, {});
    await onRequestError(Object.assign(new Error('NEXT_REDIRECT'), { digest: 'NEXT_REDIRECT;replace;/login;307;' }), { path: '/', method: 'GET', headers: {} }, {});
    await client.flush();
    const reports = bodiesAt(calls, '/ingest/errors');
    expect(reports).toHaveLength(1);
    expect(reports[0].trace_id).toBe('f'.repeat(32));
  });
});

describe('withRouteHandler', () => {
  it('traces the request, correlates logs and sets trace headers on the response', async () => {
    const { client, calls } = makeClient();
    const GET = withRouteHandler(
      async (request: Request) => {
        await new Promise((r) => setTimeout(r, 2));
        client.logger.info('listing items');
        return Response.json({ url: new URL(request.url).pathname });
      },
      { client },
    );
    const res = await GET(new Request('http://localhost/api/items?page=2', { headers: { traceparent: `00-${TRACE}-${PARENT}-01` } }), {});
    expect(await res.json()).toEqual({ url: '/api/items' });
    await client.flush();
    const [span] = bodiesAt(calls, '/ingest/traces');
    expect(span).toMatchObject({ operation: 'GET /api/items', trace_id: TRACE, parent_span_id: PARENT, status: 'ok' });
    expect(res.headers.get('x-trace-id')).toBe(TRACE);
    expect(res.headers.get('x-span-id')).toBe(span.span_id);
    expect(logsIn(calls)[0]).toMatchObject({ trace_id: TRACE, span_id: span.span_id });
  });

  it('names the span by the route folder: from params (an object, or a promise as in Next 15), or the route option', async () => {
    const { client, calls } = makeClient();
    const GET = withRouteHandler(() => new Response('ok'), { client });
    await GET(new Request('http://localhost/api/orders/101'), { params: Promise.resolve({ id: '101' }) });
    await GET(new Request('http://localhost/api/orders/102'), { params: { id: '102' } });
    await GET(new Request('http://localhost/docs/a/b%20c'), { params: Promise.resolve({ slug: ['a', 'b c'] }) });
    const named = withRouteHandler(() => new Response('ok'), { client, route: '/api/health' });
    await named(new Request('http://localhost/api/health'), {});
    await client.flush();
    expect(bodiesAt(calls, '/ingest/traces').map((s) => [s.operation, s.metadata['url.path'], s.metadata['http.route']])).toEqual([
      ['GET /api/orders/[id]', '/api/orders/101', '/api/orders/[id]'],
      ['GET /api/orders/[id]', '/api/orders/102', '/api/orders/[id]'],
      ['GET /docs/[...slug]', '/docs/a/b%20c', '/docs/[...slug]'],
      ['GET /api/health', '/api/health', '/api/health'],
    ]);
  });

  it('nests under Next.js own OpenTelemetry span when there are no trace headers', async () => {
    const { client, calls } = makeClient();
    fakeOtelActiveSpan('f'.repeat(32), 'e'.repeat(16));
    const POST = withRouteHandler(() => new Response('ok'), { client });
    await POST(new Request('http://localhost/api/x', { method: 'POST' }), {});
    await client.flush();
    expect(bodiesAt(calls, '/ingest/traces')[0]).toMatchObject({ trace_id: 'f'.repeat(32), parent_span_id: 'e'.repeat(16), operation: 'POST /api/x' });
  });

  it('reports thrown errors, ends the span as error and rethrows', async () => {
    const { client, calls } = makeClient();
    const GET = withRouteHandler(
      () => {
        throw new Error('handler broke');
      },
      { client },
    );
    await expect(GET(new Request('http://localhost/api/broken'), {})).rejects.toThrow('handler broke');
    await client.flush();
    expect(bodiesAt(calls, '/ingest/traces')[0]).toMatchObject({ status: 'error', metadata: { 'http.response.status_code': 500 } });
    expect(bodiesAt(calls, '/ingest/errors')[0]).toMatchObject({ error_message: 'handler broke' });
  });

  it('copies responses with immutable headers, and lets redirects through unreported', async () => {
    const { client, calls } = makeClient();
    const GET = withRouteHandler(() => Response.redirect('http://localhost/elsewhere', 302), { client });
    const res = await GET(new Request('http://localhost/go'), {});
    expect(res.status).toBe(302);
    expect(res.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/);
    const redirecting = withRouteHandler(
      () => {
        throw Object.assign(new Error('NEXT_REDIRECT'), { digest: 'NEXT_REDIRECT;push;/login;307;' });
      },
      { client },
    );
    await expect(redirecting(new Request('http://localhost/private'), {})).rejects.toThrow('NEXT_REDIRECT');
    await client.flush();
    expect(bodiesAt(calls, '/ingest/errors')).toHaveLength(0);
    expect(bodiesAt(calls, '/ingest/traces').map((s) => [s.operation, s.status, s.metadata['http.response.status_code']])).toEqual([
      ['GET /go', 'ok', 302],
      ['GET /private', 'ok', 307],
    ]);
  });

  it('respects ignorePaths', async () => {
    const { client, calls } = makeClient();
    const GET = withRouteHandler(() => new Response('ok'), { client, ignorePaths: ['/api/health'] });
    const res = await GET(new Request('http://localhost/api/health'), {});
    await client.flush();
    expect(res.headers.get('x-trace-id')).toBeNull();
    expect(calls).toHaveLength(0);
  });
});

describe('withServerAction', () => {
  it('wraps the action in a span and passes arguments and result through', async () => {
    const { client, calls } = makeClient();
    const createOrder = withServerAction(
      'createOrder',
      async (sku: string, qty: number) => {
        client.logger.info('creating');
        return { sku, qty };
      },
      { client },
    );
    expect(await createOrder('A1', 2)).toEqual({ sku: 'A1', qty: 2 });
    await client.flush();
    const [span] = bodiesAt(calls, '/ingest/traces');
    expect(span).toMatchObject({ operation: 'action createOrder', status: 'ok', metadata: { 'next.action': 'createOrder' } });
    expect(logsIn(calls)[0].span_id).toBe(span.span_id);
  });

  it('reports failures but not redirects', async () => {
    const { client, calls } = makeClient();
    const failing = withServerAction(
      'pay',
      async () => {
        throw new Error('card declined');
      },
      { client },
    );
    const redirecting = withServerAction(
      'login',
      async () => {
        throw Object.assign(new Error('NEXT_REDIRECT'), { digest: 'NEXT_REDIRECT;push;/home;303;' });
      },
      { client },
    );
    await expect(failing()).rejects.toThrow('card declined');
    await expect(redirecting()).rejects.toThrow('NEXT_REDIRECT');
    await client.flush();
    const errors = bodiesAt(calls, '/ingest/errors');
    expect(errors).toHaveLength(1);
    const spans = bodiesAt(calls, '/ingest/traces');
    expect(errors[0]).toMatchObject({ error_message: 'card declined', trace_id: spans[0].trace_id, context: { 'next.action': 'pay' } });
    expect(spans.map((s) => [s.operation, s.status])).toEqual([
      ['action pay', 'error'],
      ['action login', 'ok'],
    ]);
  });
});

describe('browser error boundary', () => {
  it('reports caught render errors with the component stack and renders the fallback', async () => {
    const { client, calls } = makeClient();
    const fallback = vi.fn(({ error }: { error: Error }) => `failed: ${error.message}`);
    const boundary = new DevtrailErrorBoundary({ client, fallback, children: 'content' });
    expect(boundary.render()).toBe('content');
    const error = new Error('widget crashed');
    boundary.state = DevtrailErrorBoundary.getDerivedStateFromError(error);
    boundary.componentDidCatch(error, { componentStack: '\n    at Widget\n    at Page' });
    expect(boundary.render()).toBe('failed: widget crashed');
    expect(fallback).toHaveBeenCalledWith({ error, reset: boundary.reset });
    await client.flush();
    expect(bodiesAt(calls, '/ingest/errors')[0]).toMatchObject({
      error_message: 'widget crashed',
      severity: 'high',
      context: { source: 'react.error_boundary', component_stack: '\n    at Widget\n    at Page' },
    });
  });

  it('is a React component class that accepts a static fallback', () => {
    const { client } = makeClient();
    const element = React.createElement(DevtrailErrorBoundary, { client, fallback: 'oops' }, 'child');
    expect(element.type).toBe(DevtrailErrorBoundary);
    const boundary = new DevtrailErrorBoundary({ client, fallback: 'oops' });
    boundary.state = { error: new Error('x') };
    expect(boundary.render()).toBe('oops');
  });

  it('builds the browser client from NEXT_PUBLIC_* variables, a no-op without them', () => {
    expect(getBrowserClient().enabled).toBe(false);
    delete g[BROWSER_CLIENT];
    vi.stubEnv('NEXT_PUBLIC_DEVTRAIL_API_KEY', 'dt_0123456789abcdef01234567');
    vi.stubEnv('NEXT_PUBLIC_DEVTRAIL_BASE_URL', 'https://devtrail.example.test');
    const client = getBrowserClient();
    expect(client.enabled).toBe(true);
    expect(client.options).toMatchObject({ service: 'browser', baseUrl: 'https://devtrail.example.test' });
    expect(getBrowserClient()).toBe(client);
  });
});
