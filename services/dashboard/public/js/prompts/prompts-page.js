import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { Link, navigate } from '../lib/router.js';
import { useData } from '../lib/use-data.js';
import { formatTime } from '../lib/format.js';
import { useSession } from '../lib/session.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';
import { LabelBadges } from './label-badges.js';
import { PromptForm } from './prompt-form.js';
import { promptPage, promptsApi, versionPage } from './prompt-paths.js';

// LLM -> Prompts: the project's prompt registry by name, and a new prompt (docs/dashboard.md, "Prompts").

/** @param {{ project: { id: string } }} props */
export function PromptsPage({ project }) {
  const { user } = useSession();
  const { data, error, loading } = useData(() => api(promptsApi(project.id)), project.id);
  const [creating, setCreating] = useState(false);
  const canWrite = user?.role !== 'viewer';
  return html`
    <div class="page-head">
      <h1><${Link} href=${`/projects/${encodeURIComponent(project.id)}/llm`}>LLM usage</${Link}> / Prompts</h1>
      <div class="head-actions">${canWrite && html`<button type="button" class="btn btn-primary" data-testid="new-prompt" onClick=${() => setCreating(!creating)}>New prompt</button>`}</div>
    </div>
    ${
      creating &&
      html`<section class="card"><h2>New prompt</h2>
        <${PromptForm} projectId=${project.id} onSaved=${(v) => navigate(versionPage(project.id, v.name, v.version))} />
      </section>`
    }
    ${error && html`<${ErrorBox} error=${error} />`}
    ${loading && !data && html`<${Loading} />`}
    ${data && data.prompts.length === 0 && html`<${Empty}>No prompts yet. Create one, then fetch it from your app with getPrompt (docs/sdk.md).</${Empty}>`}
    ${
      data &&
      data.prompts.length > 0 &&
      html`<section class="card"><div class="table-wrap"><table class="table" data-testid="prompt-table">
        <thead><tr><th>Name</th><th>Type</th><th class="num">Versions</th><th>Labels</th><th>Updated</th></tr></thead>
        <tbody>
          ${data.prompts.map(
            (p) => html`<tr key=${p.name} data-testid="prompt-row">
              <td><${Link} href=${promptPage(project.id, p.name)}>${p.name}</${Link}></td>
              <td>${p.type}</td>
              <td class="num">${p.latest_version}</td>
              <td>${Object.entries(p.labels).map(([l, v]) => html`<span key=${l} class="nowrap"><${LabelBadges} labels=${[l]} /> <span class="muted small">v${v}</span> </span>`)}</td>
              <td class="nowrap">${formatTime(p.updated_at, { seconds: false })}</td>
            </tr>`,
          )}
        </tbody>
      </table></div></section>`
    }
  `;
}
