// Browser only: the page's own fetch and XMLHttpRequest calls get a client span under the span in
// progress (tracing.ts), or a trace of their own, and carry `traceparent` when they go to the
// page's own origin or to a target the app lists (`tracePropagationTargets`): never to a third
// party by default, since an added header makes a cross-origin request need CORS preflight and
// tells another site the trace (docs/sdk.md#browser-tracing). The SDK's own delivery (marked
// internal) is left alone, and so is a request that already carries a traceparent.
import { activeContext } from '../context/context-manager.js';
import type { Span } from '../span.js';
import type { Metadata } from '../types.js';

/** An origin or URL prefix (`https://api.example.com`), or a pattern tested against the whole URL. */
export type PropagationTarget = string | RegExp;

interface Tracer {
  startManualSpan(operation: string, options: { parent: null | Span; metadata?: Metadata }): Span;
}

interface Hooks {
  /** The span a request made now goes under. */
  parent(): Span | undefined;
  /** A request starts: returns what to call when it ends. */
  started(): () => void;
}

export function propagatesTo(url: URL, targets: readonly PropagationTarget[]): boolean {
  if (url.origin === location.origin) return true;
  return targets.some((t) => {
    if (typeof t !== 'string') return t.test(url.href);
    // An origin, or a prefix ending at a path boundary: `https://api.example.com` is not `https://api.example.com.evil.org`.
    const base = t.replace(/\/+$/, '');
    return url.origin === base || url.href.startsWith(`${base}/`) || url.href.startsWith(`${base}?`);
  });
}

function startRequest(client: Tracer, hooks: Hooks, method: string, url: URL): { span: Span; done: () => void } {
  const parent = activeContext()?.span ?? hooks.parent() ?? null;
  const span = client.startManualSpan(`${method} ${url.host}`, {
    parent,
    metadata: {
      'span.kind': 'client',
      'http.request.method': method,
      'server.address': url.hostname,
      // Without the query string, which may hold tokens.
      'url.full': `${url.origin}${url.pathname}`,
    },
  });
  return { span, done: hooks.started() };
}

function endRequest(span: Span, status: number | undefined): void {
  if (status) span.setAttribute('http.response.status_code', status);
  span.end({ status: !status || status >= 400 ? 'error' : 'ok' });
}

function urlOf(input: string | URL): URL | undefined {
  try {
    return new URL(String(input), location.href);
  } catch {
    return undefined;
  }
}

function tracedFetch(client: Tracer, targets: readonly PropagationTarget[], hooks: Hooks): () => void {
  const original = globalThis.fetch;
  if (typeof original !== 'function') return () => {};
  globalThis.fetch = function devtrailFetch(input: RequestInfo | URL, init?: RequestInit) {
    const isRequest = typeof Request !== 'undefined' && input instanceof Request;
    const url = urlOf(isRequest ? input.url : (input as string | URL));
    if (activeContext()?.internal || !url) return original(input, init);
    const headers = new Headers(init?.headers ?? (isRequest ? input.headers : undefined));
    if (headers.has('traceparent')) return original(input, init);
    const method = (init?.method ?? (isRequest ? input.method : 'GET')).toUpperCase();
    const { span, done } = startRequest(client, hooks, method, url);
    if (propagatesTo(url, targets)) {
      headers.set('traceparent', span.traceparent());
      init = { ...init, headers };
    }
    return original(input, init).then(
      (res) => {
        endRequest(span, res.status);
        done();
        return res;
      },
      (err: unknown) => {
        span.recordError(err);
        endRequest(span, undefined);
        done();
        throw err;
      },
    );
  };
  return () => {
    globalThis.fetch = original;
  };
}

function tracedXhr(client: Tracer, targets: readonly PropagationTarget[], hooks: Hooks): () => void {
  const proto = globalThis.XMLHttpRequest?.prototype;
  if (!proto) return () => {};
  const { open, send, setRequestHeader } = proto;
  const info = new WeakMap<XMLHttpRequest, { method: string; url: URL | undefined; own: boolean }>();
  proto.open = function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
    info.set(this, { method: String(method).toUpperCase(), url: urlOf(url), own: false });
    return (open as (...a: unknown[]) => void).call(this, method, url, ...rest);
  } as typeof proto.open;
  proto.setRequestHeader = function (this: XMLHttpRequest, name: string, value: string) {
    const i = info.get(this);
    if (i && name.toLowerCase() === 'traceparent') i.own = true;
    return setRequestHeader.call(this, name, value);
  };
  proto.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const i = info.get(this);
    if (i?.url && !i.own && !activeContext()?.internal) {
      const { span, done } = startRequest(client, hooks, i.method, i.url);
      if (propagatesTo(i.url, targets)) setRequestHeader.call(this, 'traceparent', span.traceparent());
      this.addEventListener('loadend', () => {
        endRequest(span, this.status);
        done();
      });
    }
    return send.call(this, body);
  };
  return () => {
    proto.open = open;
    proto.send = send;
    proto.setRequestHeader = setRequestHeader;
  };
}

export function instrumentPageHttp(client: Tracer, targets: readonly PropagationTarget[], hooks: Hooks): () => void {
  const restores = [tracedFetch(client, targets, hooks), tracedXhr(client, targets, hooks)];
  return () => {
    for (const r of restores.reverse()) r();
  };
}
