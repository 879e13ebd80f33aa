import { render } from 'preact';
import { html } from 'htm/preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, setCsrfToken, setUnauthorizedHandler } from './lib/api.js';
import { SessionContext } from './lib/session.js';
import { navigate, useLocation } from './lib/router.js';
import { Routes } from './routes.js';
import { Loading, ErrorBox } from './components/status.js';
import { onZoneChange } from './lib/format.js';
import { installShortcuts } from './lib/shortcuts.js';
import { installMenusInView } from './lib/menus-in-view.js';
import { loginHref, safeNext } from './lib/next-page.js';

function App() {
  const [session, setSession] = useState(/** @type {Omit<import('./lib/session.js').Session, 'refresh'> | null} */ (null));
  const [failure, setFailure] = useState(/** @type {unknown} */ (null));
  const { path } = useLocation();
  // Times are drawn in the chosen zone: a change redraws everything.
  const [zone, setZoneTick] = useState(0);
  useEffect(() => onZoneChange(() => setZoneTick((n) => n + 1)), []);

  const refresh = useCallback(async () => {
    try {
      const me = await api('/auth/me');
      setCsrfToken(me.csrf_token);
      setSession({ user: me.user, setupNeeded: me.setup_needed, config: me.config || {} });
      setFailure(null);
    } catch (err) {
      setFailure(err);
    }
  }, []);

  useEffect(() => {
    void refresh();
    setUnauthorizedHandler(() => refresh());
  }, [refresh]);

  // Anonymous visitors go to setup (no account yet) or login, which comes back to the page
  // they asked for (next-page.js); signed-in users leave them.
  useEffect(() => {
    if (!session) return;
    const open = path === '/login' || path === '/setup';
    if (session.setupNeeded && path !== '/setup') navigate('/setup', { replace: true });
    else if (!session.setupNeeded && !session.user && path !== '/login') navigate(loginHref(), { replace: true });
    else if (session.user && (open || path === '/')) navigate(safeNext(new URLSearchParams(location.search).get('next')) ?? '/projects', { replace: true });
  }, [session, path]);

  if (failure) return html`<div class="centered"><${ErrorBox} error=${failure} /></div>`;
  if (!session) return html`<${Loading} />`;
  return html`<${SessionContext.Provider} value=${{ ...session, refresh }}><${Routes} path=${path} zone=${zone} /></${SessionContext.Provider}>`;
}

installShortcuts();
installMenusInView();
render(html`<${App} />`, /** @type {HTMLElement} */ (document.getElementById('app')));
