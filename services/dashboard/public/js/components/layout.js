import { html } from 'htm/preact';
import { Link, navigate } from '../lib/router.js';
import { api } from '../lib/api.js';
import { useSession } from '../lib/session.js';
import { projectHref } from '../lib/view-state.js';
import { ZoneSwitch } from './zone-switch.js';

const PROJECT_TABS = [
  ['logs', 'Logs'],
  ['errors', 'Errors'],
  ['traces', 'Traces'],
  ['releases', 'Releases'],
  ['metrics', 'Metrics'],
  ['llm', 'LLM usage'],
  ['alerts', 'Alerts'],
  ['ingestion', 'Ingestion'],
  ['settings', 'Settings'],
];

function TopBar() {
  const { user, refresh } = useSession();
  const logout = async () => {
    await api('/auth/logout', { method: 'POST' }).catch(() => {});
    await refresh();
    navigate('/login', { replace: true });
  };
  return html`
    <header class="topbar">
      <${Link} href="/projects" class="brand">devtrail</${Link}>
      <nav class="topnav">
        <${Link} href="/projects">Projects</${Link}>
        ${user?.is_owner && html`<${Link} href="/users">Users</${Link}>`}
      </nav>
      <div class="spacer"></div>
      <${ZoneSwitch} />
      ${
        user &&
        html`<${Link} href="/account" class="whoami" data-testid="whoami">${user.username}${user.role === 'member' ? '' : ` (${user.role})`}</${Link}>
        <button type="button" class="btn btn-small btn-ghost" onClick=${logout}>Log out</button>`
      }
    </header>
  `;
}

/** The frame of every signed-in page; project pages add the project's tabs, which keep the time range and filters (view-state.js). */
export function Layout({ project, active, children }) {
  return html`
    <div class="shell">
      <${TopBar} />
      ${
        project &&
        html`<div class="project-bar">
        <div class="project-name" data-testid="project-name">${project.name}</div>
        <nav class="tabs" aria-label="Project">
          ${PROJECT_TABS.map(
            ([id, label]) =>
              html`<${Link} href=${projectHref(project.id, id)} class=${active === id ? 'tab active' : 'tab'} aria-current=${active === id ? 'page' : undefined}>${label}</${Link}>`,
          )}
        </nav>
      </div>`
      }
      <main class="content">${children}</main>
    </div>
  `;
}
