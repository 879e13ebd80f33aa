// Node only (the "node" entry installs it): outgoing HTTP requests made inside a span carry
// `traceparent` and get a client span, with no code changes (docs/sdk.md#outgoing-requests), and
// every outgoing request the app makes leaves a breadcrumb (docs/sdk.md#breadcrumbs).
// Node publishes its HTTP clients' lifecycle on diagnostics channels: undici (global fetch)
// on `undici:request:*`, and `http`/`https` on `http.client.*` (the `created` channel, where
// headers can still be set, is Node 22.12+). The subscribers run synchronously inside the
// caller's call, so the active span (AsyncLocalStorage) is the caller's. A request that already
// carries a traceparent (the app propagates by hand, traceHeaders()) is left alone.
import dc from 'node:diagnostics_channel';
import { activeContext } from '../context/context-manager.js';
import type { Scope } from '../scope.js';
import type { Span } from '../span.js';
import type { Breadcrumb } from '../types.js';

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

/** What is known of each request in flight (weak: a request dropped unanswered takes it along). */
interface InFlight {
  method: string;
  url: URL;
  span?: Span;
  /** The request scope it was made in, for its breadcrumb. */
  scope?: Scope;
}
const inFlight = new WeakMap<object, InFlight>();

const KEY = Symbol.for('devtrail.sdk.outgoing-http');
type State = { subscribed: boolean; tracing: boolean; crumbs: Set<(crumb: Breadcrumb) => void> };
const state = (): State => ((globalThis as { [KEY]?: State })[KEY] ??= { subscribed: false, tracing: false, crumbs: new Set() });

/** A request made by the app (not the SDK's own delivery), with a client span under the active span when tracing is on. */
function track(request: object, method: string, url: URL, propagates: boolean): Span | undefined {
  const active = activeContext();
  if (active?.internal) return undefined;
  const s = state();
  if (!s.tracing && s.crumbs.size === 0) return undefined;
  const entry: InFlight = { method, url, scope: active?.scope };
  inFlight.set(request, entry);
  if (!s.tracing || !propagates || !active?.span) return undefined;
  // Span names stay low-cardinality (method and host); the path without its query is an attribute.
  entry.span = active.span.startChild(`${method} ${url.host}`, {
    'span.kind': 'client',
    'http.request.method': method,
    'server.address': url.hostname,
    'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
    'url.full': `${url.origin}${url.pathname}`,
  });
  return entry.span;
}

function finish(request: object, status: number | undefined, error?: unknown): void {
  const entry = inFlight.get(request);
  if (!entry) return;
  inFlight.delete(request);
  const { span } = entry;
  if (span) {
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (error !== undefined) span.recordError(error);
    // OpenTelemetry's HTTP client conventions: a 4xx or 5xx answer is a failed call.
    span.end({ status: error !== undefined || (status ?? 0) >= 400 ? 'error' : 'ok' });
  }
  // The URL without its query string, which may hold secrets (docs/sdk.md#breadcrumbs).
  const crumb = { type: 'http', message: `${entry.method} ${entry.url.origin}${entry.url.pathname} ${status ?? 'failed'}` };
  if (entry.scope) entry.scope.addBreadcrumb(crumb);
  else for (const add of state().crumbs) add(crumb);
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
  if (!url) return;
  const propagates = typeof request.addHeader === 'function' && !hasTraceparent(request.headers);
  const span = track(request, (request.method ?? 'GET').toUpperCase(), url, propagates);
  if (span) request.addHeader!('traceparent', span.traceparent());
}

function onHttpCreated({ request }: { request: HttpClientRequest }): void {
  // The Host header has the port; `host` is the name alone.
  const host = request.getHeader?.('host') ?? request.host ?? 'localhost';
  const url = urlOf(`${request.protocol ?? 'http:'}//${String(host)}`, request.path);
  if (!url) return;
  const propagates = typeof request.setHeader === 'function' && !request.getHeader?.('traceparent');
  const span = track(request, (request.method ?? 'GET').toUpperCase(), url, propagates);
  if (span) request.setHeader!('traceparent', span.traceparent());
}

const SUBSCRIPTIONS: Array<[string, (message: never) => void]> = [
  ['undici:request:create', onUndiciCreate],
  ['undici:request:headers', ({ request, response }: { request: object; response: { statusCode?: number } }) => finish(request, response?.statusCode)],
  ['undici:request:error', ({ request, error }: { request: object; error: unknown }) => finish(request, undefined, error)],
  ['http.client.request.created', onHttpCreated],
  ['http.client.response.finish', ({ request, response }: { request: object; response: { statusCode?: number } }) => finish(request, response?.statusCode)],
  ['http.client.request.error', ({ request, error }: { request: object; error: unknown }) => finish(request, undefined, error)],
];

/**
 * Subscribes once per process (the ESM and CJS copies share the state). `trace`: client spans
 * and traceparent for requests made inside a span; `breadcrumb`: where a client takes the
 * breadcrumbs of requests made outside any request scope. Returns how to take the latter back.
 */
export function instrumentOutgoingHttp(options: { trace?: boolean; breadcrumb?: (crumb: Breadcrumb) => void } = { trace: true }): () => void {
  const s = state();
  if (options.trace) s.tracing = true;
  if (options.breadcrumb) s.crumbs.add(options.breadcrumb);
  if (!s.subscribed) {
    s.subscribed = true;
    for (const [name, fn] of SUBSCRIPTIONS) dc.subscribe(name, fn as (message: unknown) => void);
  }
  return () => {
    if (options.breadcrumb) s.crumbs.delete(options.breadcrumb);
  };
}
