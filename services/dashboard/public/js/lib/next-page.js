// The page a visitor asked for before logging in (?next= on /login), and only a page of
// this dashboard: a path on this origin, never another site (no "//host", no scheme).

/** @param {string | null} next */
export function safeNext(next) {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  if (/^\/(login|setup)(\?|$)/.test(next)) return null;
  return next;
}

/** /login with the current page to come back to. */
export function loginHref() {
  const here = location.pathname + location.search;
  return here === '/' || here.startsWith('/login') ? '/login' : `/login?next=${encodeURIComponent(here)}`;
}
