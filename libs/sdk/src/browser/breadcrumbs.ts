// Browser only: breadcrumbs recorded without code changes (docs/sdk.md#browser), kept on the
// client's scope (capped at maxBreadcrumbs) and sent with the next error report: clicks, console
// calls, fetch and XMLHttpRequest calls with their status, and navigations (history and hash
// changes). Each is wrapped or listened to once per client and restored by the returned function.
// The SDK's own delivery (marked internal) leaves no breadcrumb.
import { consoleBreadcrumbs, cut } from '../breadcrumbs/console.js';
import { activeContext } from '../context/context-manager.js';
import type { Breadcrumb } from '../types.js';

export interface BreadcrumbOptions {
  clicks?: boolean;
  console?: boolean;
  http?: boolean;
  navigation?: boolean;
}

type Add = (crumb: Breadcrumb) => void;
type Restore = () => void;

/** `button#buy.primary "Pay now"`: enough to find the element, without its whole content. */
export function describeElement(el: Element | null): string {
  if (!el) return 'unknown';
  const id = el.id ? `#${el.id}` : '';
  const classes = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).slice(0, 3).join('.')}` : '';
  const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ');
  return `${el.tagName.toLowerCase()}${id}${classes}${text ? ` "${cut(text)}"` : ''}`;
}

/** A URL as a breadcrumb shows it: its path, without the query string (which may hold tokens). */
function pathOf(url: string): string {
  try {
    const u = new URL(url, globalThis.location?.href);
    return u.origin === globalThis.location?.origin ? u.pathname : `${u.origin}${u.pathname}`;
  } catch {
    return cut(url);
  }
}

function clicks(add: Add): Restore {
  const onClick = (e: Event) => add({ type: 'ui.click', message: describeElement(e.target as Element | null) });
  document.addEventListener('click', onClick, true);
  return () => document.removeEventListener('click', onClick, true);
}

function fetchCalls(add: Add): Restore {
  const original = globalThis.fetch;
  if (typeof original !== 'function') return () => {};
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    if (activeContext()?.internal) return original(input, init);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const url = pathOf(input instanceof Request ? input.url : String(input));
    try {
      const res = await original(input, init);
      add({ type: 'http', message: `${method} ${url} ${res.status}` });
      return res;
    } catch (err) {
      add({ type: 'http', message: `${method} ${url} failed` });
      throw err;
    }
  };
  return () => {
    globalThis.fetch = original;
  };
}

function xhrCalls(add: Add): Restore {
  const proto = globalThis.XMLHttpRequest?.prototype;
  if (!proto) return () => {};
  const { open } = proto;
  const seen = new WeakMap<XMLHttpRequest, string>();
  proto.open = function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
    // Listened to here, before the page's own handlers (set after open), so the breadcrumb comes first.
    if (!seen.has(this)) this.addEventListener('loadend', () => add({ type: 'http', message: `${seen.get(this)} ${this.status || 'failed'}` }));
    seen.set(this, `${String(method).toUpperCase()} ${pathOf(String(url))}`);
    return (open as (...a: unknown[]) => void).call(this, method, url, ...rest);
  } as typeof proto.open;
  return () => {
    proto.open = open;
  };
}

function navigations(add: Add): Restore {
  let from = globalThis.location.pathname;
  const moved = () => {
    const to = globalThis.location.pathname;
    if (to !== from) add({ type: 'navigation', message: `${from} → ${to}` });
    from = to;
  };
  const { pushState, replaceState } = history;
  history.pushState = function (this: History, ...args: Parameters<History['pushState']>) {
    pushState.apply(this, args);
    moved();
  };
  history.replaceState = function (this: History, ...args: Parameters<History['replaceState']>) {
    replaceState.apply(this, args);
    moved();
  };
  window.addEventListener('popstate', moved);
  window.addEventListener('hashchange', moved);
  return () => {
    history.pushState = pushState;
    history.replaceState = replaceState;
    window.removeEventListener('popstate', moved);
    window.removeEventListener('hashchange', moved);
  };
}

export function installBreadcrumbs(add: Add, options: BreadcrumbOptions = {}): Restore {
  const restores: Restore[] = [];
  if (options.clicks !== false) restores.push(clicks(add));
  if (options.console !== false) restores.push(consoleBreadcrumbs(add));
  if (options.http !== false) restores.push(fetchCalls(add), xhrCalls(add));
  if (options.navigation !== false && typeof history !== 'undefined') restores.push(navigations(add));
  return () => {
    for (const restore of restores.reverse()) restore();
  };
}
