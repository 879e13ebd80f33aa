// Outgoing requests inside a span carry traceparent and get a client span, with no code
// changes (docs/sdk.md#outgoing-requests): real global fetch (undici) and node:http calls to a
// real local server. The SDK's own delivery goes to a capture server (NOT the real receiver).
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DevtrailClient } from '../src/client.js';
import { installAsyncContext } from '../src/context/context-manager.js';
import { instrumentOutgoingHttp } from '../src/node/outgoing-http.js';
import { startCaptureServer, TEST_KEY, type CaptureServer } from './helpers/capture-server.js';

let downstream: Server;
let downstreamUrl: string;
const seen: IncomingHttpHeaders[] = [];
let capture: CaptureServer;
let client: DevtrailClient;

beforeAll(async () => {
  installAsyncContext(AsyncLocalStorage);
  instrumentOutgoingHttp();
  downstream = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(req.url === '/missing' ? 404 : 200).end('ok');
  });
  await new Promise<void>((r) => downstream.listen(0, '127.0.0.1', r));
  downstreamUrl = `http://127.0.0.1:${(downstream.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => downstream.close(() => r())));
beforeEach(async () => {
  seen.length = 0;
  capture = await startCaptureServer();
  // The real global fetch for delivery too: the SDK's own requests must not trace themselves.
  client = new DevtrailClient({ apiKey: TEST_KEY, baseUrl: capture.url, service: 'shop', flushIntervalMs: 10 });
});
afterEach(async () => {
  await client.close();
  await capture.close();
});

const httpGet = (url: string) =>
  new Promise<number>((resolve, reject) => {
    get(url, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
const spans = () => capture.bodies('/ingest/traces');

describe('outgoing requests inside a span', () => {
  it('fetch and http.get carry traceparent naming their own client span, under the active span', async () => {
    await client.startSpan('checkout', async () => {
      expect((await fetch(`${downstreamUrl}/price?sku=1`)).status).toBe(200);
      expect(await httpGet(`${downstreamUrl}/stock`)).toBe(200);
      expect((await fetch(`${downstreamUrl}/missing`)).status).toBe(404);
    });
    await client.flush();
    const parent = spans().find((s) => s.operation === 'checkout');
    const clients = spans().filter((s) => s.metadata?.['span.kind'] === 'client');
    expect(clients).toHaveLength(3);
    for (const [i, headers] of seen.entries()) {
      const [, trace, span, flags] = String(headers.traceparent).split('-');
      expect(trace).toBe(parent.trace_id);
      expect(flags).toBe('01');
      const own = clients.find((c) => c.span_id === span);
      expect(own, `request ${i}`).toMatchObject({ trace_id: parent.trace_id, parent_span_id: parent.span_id });
    }
    const host = new URL(downstreamUrl).host;
    expect(clients.map((c) => [c.operation, c.status, c.metadata['http.response.status_code']])).toEqual([
      [`GET ${host}`, 'ok', 200],
      [`GET ${host}`, 'ok', 200],
      [`GET ${host}`, 'error', 404],
    ]);
    // The query string is left out of the URL attribute (it may hold secrets).
    expect(clients[0].metadata['url.full']).toBe(`${downstreamUrl}/price`);
  });

  it('a failed connection ends its client span with status error', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await client.startSpan('checkout', async () => {
      await expect(fetch(`http://127.0.0.1:${port}/nothing-listens`)).rejects.toThrow();
      await expect(httpGet(`http://127.0.0.1:${port}/nothing-listens`)).rejects.toThrow();
    });
    await client.flush();
    const failed = spans().filter((s) => s.metadata?.['span.kind'] === 'client');
    expect(failed.map((s) => [s.status, s.operation])).toEqual([
      ['error', `GET 127.0.0.1:${port}`],
      ['error', `GET 127.0.0.1:${port}`],
    ]);
  });

  it('a request that already carries traceparent (the app propagates by hand) is left alone', async () => {
    await client.startSpan('checkout', async () => {
      await fetch(`${downstreamUrl}/price`, { headers: client.traceHeaders() });
      await new Promise<void>((r) => get(`${downstreamUrl}/stock`, { headers: client.traceHeaders() }, (res) => res.resume().on('end', () => r())));
    });
    await client.flush();
    const parent = spans().find((s) => s.operation === 'checkout');
    expect(seen.map((h) => h.traceparent)).toEqual([`00-${parent.trace_id}-${parent.span_id}-01`, `00-${parent.trace_id}-${parent.span_id}-01`]);
    expect(spans().filter((s) => s.metadata?.['span.kind'] === 'client')).toEqual([]);
  });

  it('outside any span nothing is added and nothing is traced', async () => {
    await fetch(`${downstreamUrl}/plain`);
    await httpGet(`${downstreamUrl}/plain`);
    client.logger.info('flushing');
    await client.flush();
    expect(seen.map((h) => h.traceparent)).toEqual([undefined, undefined]);
    expect(spans()).toEqual([]);
  });

  it('an unsampled trace propagates 00 and sends no span', async () => {
    const parent = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', sampled: false };
    await client.startSpan('job', () => fetch(`${downstreamUrl}/price`), { parent });
    client.logger.info('flushing');
    await client.flush();
    expect(String(seen[0].traceparent)).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-00$/);
    expect(spans()).toEqual([]);
  });

  it("the SDK's own delivery inside a span is not traced", async () => {
    await client.startSpan('work', async () => {
      client.logger.info('inside');
      await client.flush();
    });
    await client.flush();
    expect(capture.logs().map((l) => l.message)).toEqual(['inside']);
    expect(spans().map((s) => s.operation)).toEqual(['work']);
    expect(capture.requests.every((r) => r.headers.traceparent === undefined)).toBe(true);
  });
});
