// Browser only: tracing without code changes (docs/sdk.md#browser-tracing).
// - A page-load span from the navigation's start (performance.timeOrigin), with the web vitals
//   and the navigation's timing (web-vitals.ts); it ends when the page has loaded and no request
//   of the page has been in flight for `idleTimeoutMs`, and is sent when the page is hidden,
//   once LCP, CLS and INP are final.
// - A navigation span per route change of a single-page app (history.pushState/replaceState,
//   popstate), ending the same way.
// - A click that starts a request outside those spans opens a `ui.click` span for it (a click
//   that starts none costs nothing).
// Browsers have no AsyncLocalStorage, so the span in progress ("the activity") is what the
// page's own fetch and XHR calls (http-tracing.ts) take as parent, and what logs and errors are
// correlated with meanwhile. Every span is under tracesSampleRate like any other.
import type { Span } from '../span.js';
import type { Metadata } from '../types.js';
import { describeElement } from './breadcrumbs.js';
import { instrumentPageHttp, type PropagationTarget } from './http-tracing.js';
import { readVitals } from './web-vitals.js';

export interface BrowserTracingOptions {
  /** Origins or URL prefixes (strings) and patterns whose requests carry traceparent, besides the page's own origin. */
  tracePropagationTargets: PropagationTarget[];
  /** How long without a request in flight ends a page-load, navigation or click span. Default 1000 ms. */
  idleTimeoutMs?: number;
  /** The longest such a span lasts. Default 30000 ms. */
  maxActivityMs?: number;
}

/** What tracing needs of the client (a structural type: the client imports this file). */
interface Tracer {
  startManualSpan(operation: string, options: { parent: null; metadata?: Metadata; startTime?: number }): Span;
  flush(): Promise<boolean>;
}

interface Activity {
  span: Span;
  pending: number;
  lastEnd: number;
  idle: ReturnType<typeof setTimeout> | undefined;
  cap: ReturnType<typeof setTimeout>;
  /** Instead of ending the span at once (the page load waits for its vitals). */
  onIdle?: (endTime: number) => void;
}

export interface BrowserTracing {
  /** The span in progress, if any. */
  activity(): Span | undefined;
  stop(): void;
}

const NONE: BrowserTracing = { activity: () => undefined, stop() {} };

export function installBrowserTracing(client: Tracer, options: BrowserTracingOptions): BrowserTracing {
  // A page-like global without what tracing reads (a worker, a test double): nothing to trace.
  if (typeof location === 'undefined' || typeof history === 'undefined' || typeof performance === 'undefined' || typeof addEventListener !== 'function') return NONE;
  try {
    return install(client, options);
  } catch {
    return NONE;
  }
}

function install(client: Tracer, options: BrowserTracingOptions): BrowserTracing {
  const idleMs = options.idleTimeoutMs ?? 1000;
  const maxMs = options.maxActivityMs ?? 30_000;
  let current: Activity | undefined;
  let click: { name: string; at: number } | undefined;

  const finish = (a: Activity, endTime = Math.max(a.lastEnd, Date.now())): void => {
    if (current === a) current = undefined;
    clearTimeout(a.idle);
    clearTimeout(a.cap);
    if (a.onIdle) a.onIdle(endTime);
    else a.span.end({ endTime });
  };
  const armIdle = (a: Activity): void => {
    clearTimeout(a.idle);
    if (a.pending === 0) a.idle = setTimeout(() => finish(a), idleMs);
  };
  const begin = (operation: string, metadata: Metadata, startTime?: number, onIdle?: Activity['onIdle']): Activity => {
    if (current) finish(current);
    const span = client.startManualSpan(operation, { parent: null, metadata, startTime });
    const a: Activity = { span, pending: 0, lastEnd: startTime ?? Date.now(), idle: undefined, cap: setTimeout(() => finish(a), maxMs), onIdle };
    current = a;
    return a;
  };

  // The page load: from the navigation's start, until the page loaded and its requests settled.
  const vitals = readVitals();
  let pageLoad: { span: Span; endTime?: number } | undefined;
  const origin = Math.round(performance.timeOrigin ?? Date.now());
  const load = begin(`pageload ${location.pathname}`, { 'span.kind': 'client', 'browser.op': 'pageload', 'url.path': location.pathname }, origin, (endTime) => {
    if (pageLoad) pageLoad.endTime = endTime;
  });
  pageLoad = { span: load.span };
  const loaded = (): void => {
    const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
    load.lastEnd = Math.max(load.lastEnd, origin + Math.round(nav?.loadEventEnd || performance.now()));
    armIdle(load);
  };
  if (document.readyState === 'complete') loaded();
  else addEventListener('load', () => setTimeout(loaded), { once: true });

  /** Sends the page-load span with the vitals as they are now: when the page is hidden. */
  const sendPageLoad = (): void => {
    if (!pageLoad) return;
    const { span, endTime } = pageLoad;
    pageLoad = undefined;
    if (current?.span === span) finish(current);
    span.setAttributes(vitals.read());
    vitals.stop();
    span.end({ endTime: endTime ?? Date.now() });
  };
  const onHidden = (e: Event): void => {
    if (e.type === 'visibilitychange' && document.visibilityState !== 'hidden') return;
    // Whatever is in progress ends now: the page may never be seen again.
    if (current) finish(current);
    sendPageLoad();
    void client.flush();
  };
  document.addEventListener('visibilitychange', onHidden);
  addEventListener('pagehide', onHidden);

  // Route changes of a single-page app.
  let path = location.pathname;
  const routeChanged = (): void => {
    if (location.pathname === path) return;
    path = location.pathname;
    armIdle(begin(`navigation ${path}`, { 'span.kind': 'client', 'browser.op': 'navigation', 'url.path': path }));
  };
  const { pushState, replaceState } = history;
  history.pushState = function (this: History, ...args: Parameters<History['pushState']>) {
    pushState.apply(this, args);
    routeChanged();
  };
  history.replaceState = function (this: History, ...args: Parameters<History['replaceState']>) {
    replaceState.apply(this, args);
    routeChanged();
  };
  addEventListener('popstate', routeChanged);

  // A click opens a span only once it starts a request.
  const onClick = (e: Event): void => {
    click = { name: `ui.click ${describeElement(e.target as Element | null)}`, at: Date.now() };
  };
  document.addEventListener('click', onClick, true);

  const parentForRequest = (): Span | undefined => {
    if (!current && click && Date.now() - click.at < idleMs) current = begin(click.name, { 'span.kind': 'client', 'browser.op': 'ui.click' }, click.at);
    click = undefined;
    return current?.span;
  };
  const stopHttp = instrumentPageHttp(client, options.tracePropagationTargets, {
    parent: parentForRequest,
    started() {
      const a = current;
      if (!a) return () => {};
      a.pending++;
      clearTimeout(a.idle);
      return () => {
        a.pending--;
        a.lastEnd = Date.now();
        if (current === a) armIdle(a);
      };
    },
  });

  return {
    activity: () => current?.span,
    stop() {
      stopHttp();
      vitals.stop();
      document.removeEventListener('visibilitychange', onHidden);
      removeEventListener('pagehide', onHidden);
      removeEventListener('popstate', routeChanged);
      document.removeEventListener('click', onClick, true);
      history.pushState = pushState;
      history.replaceState = replaceState;
      if (current) finish(current);
    },
  };
}
