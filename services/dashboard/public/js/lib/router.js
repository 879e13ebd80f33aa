import { useEffect, useState } from 'preact/hooks';
import { html } from 'htm/preact';

// Client-side routing over the History API. The server answers every UI path with the
// same document, so a reload or a shared link lands on the same page.

/** @type {Set<() => void>} */
const listeners = new Set();

/**
 * @param {string} to
 * @param {{ replace?: boolean }} [options]
 */
export function navigate(to, { replace = false } = {}) {
  if (to === location.pathname + location.search) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', to);
  for (const fn of listeners) fn();
}

window.addEventListener('popstate', () => {
  for (const fn of listeners) fn();
});

/** The current path and query; re-renders the caller on every navigation. */
export function useLocation() {
  const [, bump] = useState(0);
  useEffect(() => {
    const fn = () => bump((n) => n + 1);
    listeners.add(fn);
    return () => {
      listeners.delete(fn);
    };
  }, []);
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

/**
 * Replaces some query parameters of the current URL (empty values are dropped).
 * @param {import('./api.js').Query} changes
 */
export function setQuery(changes, opts = { replace: true }) {
  const q = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) q.delete(k);
    else q.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = q.toString();
  navigate(location.pathname + (s ? `?${s}` : ''), opts);
}

/**
 * Matches "/projects/:id/logs" style patterns; returns decoded params or null.
 * @param {string} pattern
 * @param {string} path
 * @returns {Record<string, string> | null}
 */
export function match(pattern, path) {
  const p = pattern.split('/');
  const s = path.replace(/\/+$/, '').split('/');
  if (p.length !== s.length) return null;
  /** @type {Record<string, string>} */
  const params = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) {
      try {
        params[p[i].slice(1)] = decodeURIComponent(s[i]);
      } catch {
        return null;
      }
    } else if (p[i] !== s[i]) return null;
  }
  return params;
}

/**
 * An <a> that navigates without reloading (modified clicks keep their browser meaning).
 * @param {{ href: string, class?: string, children?: import('preact').ComponentChildren, [attr: string]: unknown }} props
 */
export function Link({ href, class: cls, children, ...rest }) {
  const onClick = (/** @type {MouseEvent} */ e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return html`<a href=${href} class=${cls} onClick=${onClick} ...${rest}>${children}</a>`;
}
