// Node only (the "node" entry installs it): outgoing HTTP requests made inside a span carry
// `traceparent` and get a client span, with no code changes (docs/sdk.md#outgoing-requests).
// Node publishes its HTTP clients' lifecycle on diagnostics channels: undici (global fetch)
// on `undici:request:*`, and `http`/`https` on `http.client.*` (the `created` channel, where
// headers can still be set, is Node 22.12+). The subscribers run synchronously inside the
// caller's call, so the active span (AsyncLocalStorage) is the caller's. A request that already
// carries a traceparent (the app propagates by hand, traceHeaders()) is left alone.
import dc from 'node:diagnostics_channel';
import { activeContext } from '../context/context-manager.js';
import type { Span } from '../span.js';

interface UndiciRequest {
  method?: string;
  origin?: string | URL;
  path?: string;
  /** [name, value, name, value, …] (undici 6+), or raw header lines (older). */
  headers?: string[] | string;
  addHeader?(name: string, value: string): unknown;
}

/** Whether the app set traceparent itself (then it propagates on its own, and the SDK leaves the request alone). */
function hasTraceparent(headers: string[] | string | undefined): boolean {
  if (typeof headers === 'string') return /(^|\r\n)traceparent:/i.test(headers);
  if (!Array.isArray(headers)) return false;
  for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() === 'traceparent') return true;
  return false;
}
interface HttpClientRequest {
  method?: string;
  host?: string;
  protocol?: string;
  path?: string;
  setHeader?(name: string, value: string): unknown;
  getHeader?(name: string): unknown;
}

/** The client span of each request in flight (weak: a request dropped unanswered takes its span with it). */
const spans = new WeakMap<object, Span>();

/** A client span under the active span, or none: outside a span (or in the SDK's own delivery) nothing is traced. */
function startClientSpan(method: string, url: URL): Span | undefined {
  const active = activeContext();
  if (!active?.span || active.internal) return undefined;
  // Span names stay low-cardinality (method and host); the path without its query is an attribute.
  return active.span.startChild(`${method} ${url.host}`, {
    'span.kind': 'client',
    'http.request.method': method,
    'server.address': url.hostname,
    'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
    'url.full': `${url.origin}${url.pathname}`,
  });
}

function endClientSpan(request: object, status: number | undefined, error?: unknown): void {
  const span = spans.get(request);
  if (!span) return;
  spans.delete(request);
  if (status !== undefined) span.setAttribute('http.response.status_code', status);
  if (error !== undefined) span.recordError(error);
  // OpenTelemetry's HTTP client conventions: a 4xx or 5xx answer is a failed call.
  span.end({ status: error !== undefined || (status ?? 0) >= 400 ? 'error' : 'ok' });
}

function urlOf(origin: string | URL | undefined, path: string | undefined): URL | undefined {
  try {
    return new URL(path ?? '/', origin);
  } catch {
    return undefined;
  }
}

function onUndiciCreate({ request }: { request: UndiciRequest }): void {
  const url = urlOf(request.origin, request.path);
  if (!url || typeof request.addHeader !== 'function' || hasTraceparent(request.headers)) return;
  const span = startClientSpan((request.method ?? 'GET').toUpperCase(), url);
  if (!span) return;
  spans.set(request, span);
  request.addHeader('traceparent', span.traceparent());
}

function onHttpCreated({ request }: { request: HttpClientRequest }): void {
  if (typeof request.setHeader !== 'function' || request.getHeader?.('traceparent')) return;
  // The Host header has the port; `host` is the name alone.
  const host = request.getHeader?.('host') ?? request.host ?? 'localhost';
  const url = urlOf(`${request.protocol ?? 'http:'}//${String(host)}`, request.path);
  if (!url) return;
  const span = startClientSpan((request.method ?? 'GET').toUpperCase(), url);
  if (!span) return;
  spans.set(request, span);
  request.setHeader('traceparent', span.traceparent());
}

const SUBSCRIPTIONS: Array<[string, (message: never) => void]> = [
  ['undici:request:create', onUndiciCreate],
  ['undici:request:headers', ({ request, response }: { request: object; response: { statusCode?: number } }) => endClientSpan(request, response?.statusCode)],
  ['undici:request:error', ({ request, error }: { request: object; error: unknown }) => endClientSpan(request, undefined, error)],
  ['http.client.request.created', onHttpCreated],
  ['http.client.response.finish', ({ request, response }: { request: object; response: { statusCode?: number } }) => endClientSpan(request, response?.statusCode)],
  ['http.client.request.error', ({ request, error }: { request: object; error: unknown }) => endClientSpan(request, undefined, error)],
];

const KEY = Symbol.for('devtrail.sdk.outgoing-http');

/** Subscribes once per process (the ESM and CJS copies share the flag). */
export function instrumentOutgoingHttp(): void {
  const g = globalThis as { [KEY]?: boolean };
  if (g[KEY]) return;
  g[KEY] = true;
  for (const [name, fn] of SUBSCRIPTIONS) dc.subscribe(name, fn as (message: unknown) => void);
}
