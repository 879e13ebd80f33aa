import { useEffect, useState } from 'preact/hooks';
import { html } from 'htm/preact';

// Client-side routing over the History API. The server answers every UI path with the
// same document, so a reload or a shared link lands on the same page.

/** @type {Set<() => void>} */
const listeners = new Set();

/** @typedef {'load' | 'push' | 'replace' | 'pop'} NavigationKind */
/** @type {NavigationKind} */
let lastNavigation = 'load';
/** How the current page was reached: Back and Forward are 'pop', and pages then restore what they showed (page-cache.js). */
export const navigationKind = () => lastNavigation;

// Scroll positions are kept in each history entry and put back after Back or Forward, once
// the page has grown tall enough again (its data arrives after the navigation).
history.scrollRestoration = 'manual';
const saveScroll = () => history.replaceState({ ...(history.state || {}), scrollY: window.scrollY }, '');

function restoreScroll() {
  const y = Number(history.state?.scrollY || 0);
  const until = Date.now() + 3000;
  const step = () => {
    window.scrollTo(0, y);
    if (Math.abs(window.scrollY - y) > 2 && Date.now() < until) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

/**
 * @param {string} to
 * @param {{ replace?: boolean }} [options]
 */
export function navigate(to, { replace = false } = {}) {
  if (to === location.pathname + location.search) return;
  if (replace) history.replaceState(history.state, '', to);
  else {
    saveScroll();
    history.pushState(null, '', to);
  }
  lastNavigation = replace ? 'replace' : 'push';
  for (const fn of listeners) fn();
  if (!replace) window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => {
  lastNavigation = 'pop';
  for (const fn of listeners) fn();
  restoreScroll();
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
  navigate(withQuery(changes), opts);
}

/**
 * The current path with some query parameters replaced (empty values dropped).
 * @param {import('./api.js').Query} changes
 */
export function withQuery(changes, path = location.pathname) {
  const q = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) q.delete(k);
    else q.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const s = q.toString();
  return path + (s ? `?${s}` : '');
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
