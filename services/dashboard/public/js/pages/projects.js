import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { Link } from '../lib/router.js';
import { useData } from '../lib/use-data.js';
import { useSession } from '../lib/session.js';
import { formatNumber, formatTime } from '../lib/format.js';
import { Layout } from '../components/layout.js';
import { KeyReveal } from '../components/key-reveal.js';
import { ErrorBox, Loading, Empty } from '../components/status.js';
import { RecentDeletions } from './settings-delete.js';

function CreateProject({ onCreated }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {unknown} */ (null));
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await api('/api/admin/projects', { method: 'POST', body: { name } });
      setName('');
      onCreated(r);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return html`
    <form class="inline-form" onSubmit=${submit}>
      <label>New project
        <input name="project-name" placeholder="my-app" required maxlength="200" value=${name} onInput=${(e) => setName(e.currentTarget.value)} />
      </label>
      <button class="btn btn-primary" type="submit" disabled=${busy}>Create project</button>
      ${error && html`<${ErrorBox} error=${error} />`}
    </form>
  `;
}

export function ProjectsPage() {
  const { user } = useSession();
  const { data, error, loading, reload } = useData(() => api('/api/admin/projects'), 'projects');
  const [created, setCreated] = useState(/** @type {{ project: { id: string, name: string }, api_key: string } | null} */ (null));
  const onCreated = (r) => {
    setCreated(r);
    reload();
  };
  return html`<${Layout}>
    <div class="page-head">
      <h1>Projects</h1>
    </div>
    <section class="card">
      ${user?.role === 'viewer' ? html`<p class="muted">Your account can read these projects; it cannot change them.</p>` : html`<${CreateProject} onCreated=${onCreated} />`}
      ${
        created &&
        html`<div class="created" data-testid="created-project">
        <h2>Project “${created.project.name}” created</h2>
        <${KeyReveal} apiKey=${created.api_key} />
        <p><${Link} href=${`/projects/${encodeURIComponent(created.project.id)}/logs`} class="btn">Open ${created.project.name}</${Link}></p>
      </div>`
      }
    </section>
    ${loading && !data && html`<${Loading} />`}
    ${error && html`<${ErrorBox} error=${error} />`}
    ${
      data &&
      (data.projects.length === 0
        ? html`<${Empty}>No projects yet. Create one to get an API key.</${Empty}>`
        : html`<div class="table-wrap"><table class="table" data-testid="projects-table">
          <thead><tr><th>Name</th><th>API key</th><th>Allowed origins</th><th>Rate limit</th><th>Created</th></tr></thead>
          <tbody>
            ${data.projects.map(
              (p) => html`<tr key=${p.id}>
                <td><${Link} href=${`/projects/${encodeURIComponent(p.id)}/logs`}>${p.name}</${Link}></td>
                <td><code>${p.key_prefix ? `${p.key_prefix}…` : 'none'}</code></td>
                <td>${p.allowed_origins.length === 0 ? html`<span class="muted">all</span>` : p.allowed_origins.join(', ')}</td>
                <td>${formatNumber(p.rate_limit_per_minute)}/min</td>
                <td>${formatTime(p.created_at, { seconds: false, zone: true })}</td>
              </tr>`,
            )}
          </tbody>
        </table></div>`)
    }
    <${RecentDeletions} />
  </${Layout}>`;
}
