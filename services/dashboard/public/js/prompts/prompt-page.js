import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api.js';
import { Link, navigate } from '../lib/router.js';
import { useData } from '../lib/use-data.js';
import { formatTime } from '../lib/format.js';
import { useSession } from '../lib/session.js';
import { ErrorBox, Loading } from '../components/status.js';
import { NotFound } from '../pages/not-found.js';
import { LabelBadges } from './label-badges.js';
import { MoveLabel } from './move-label.js';
import { PromptForm } from './prompt-form.js';
import { promptApi, promptsPage, versionPage } from './prompt-paths.js';

// One prompt: its versions with their labels, a label moved, a new version written from the
// latest one (docs/dashboard.md, "Prompts").

/** @param {{ project: { id: string }, params: { name: string } }} props */
export function PromptPage({ project, params }) {
  const { user } = useSession();
  const { name } = params;
  const { data, error, loading, reload } = useData(() => api(promptApi(project.id, name)), `${project.id}|${name}`);
  const latest = useData(
    () => (data ? api(promptApi(project.id, name, `/versions/${data.prompt.latest_version}`)) : Promise.resolve(undefined)),
    `${project.id}|${name}|${data?.prompt.latest_version}`,
  );
  const [writing, setWriting] = useState(false);
  if (error instanceof ApiError && error.status === 404) return html`<${NotFound} what="Prompt" />`;
  const canWrite = user?.role !== 'viewer';
  const p = data?.prompt;
  return html`
    <div class="page-head">
      <h1><${Link} href=${promptsPage(project.id)}>Prompts</${Link}> / <span data-testid="prompt-name">${name}</span></h1>
      <div class="head-actions">${canWrite && p && html`<button type="button" class="btn btn-primary" data-testid="new-version" onClick=${() => setWriting(!writing)}>New version</button>`}</div>
    </div>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${loading && !data && html`<${Loading} />`}
    ${
      writing &&
      latest.data &&
      html`<section class="card"><h2>New version of ${name}</h2>
        <${PromptForm}
          projectId=${project.id}
          name=${name}
          type=${p.type}
          initial=${latest.data.version.prompt}
          initialConfig=${latest.data.version.config}
          onSaved=${(v) => navigate(versionPage(project.id, name, v.version))}
        />
      </section>`
    }
    ${
      p &&
      html`
      ${
        canWrite &&
        html`<section class="card"><h2>Labels</h2>
          <p class="muted small">Apps fetch the version a label names (production by default); latest is always the newest.</p>
          <${MoveLabel} projectId=${project.id} name=${name} versions=${p.versions.map((v) => v.version)} labels=${p.labels} onChanged=${reload} />
        </section>`
      }
      <section class="card"><h2>Versions</h2>
        <div class="table-wrap"><table class="table" data-testid="version-table">
          <thead><tr><th>Version</th><th>Labels</th><th>Commit message</th><th>By</th><th>Created</th></tr></thead>
          <tbody>
            ${p.versions.map(
              (v) => html`<tr key=${v.version} data-testid="version-row">
                <td><${Link} href=${versionPage(project.id, name, v.version)}>v${v.version}</${Link}></td>
                <td><${LabelBadges} labels=${v.labels} /></td>
                <td class="break">${v.commit_message ?? html`<span class="muted">—</span>`}</td>
                <td>${v.created_by}</td>
                <td class="nowrap">${formatTime(v.created_at, { seconds: false })}</td>
              </tr>`,
            )}
          </tbody>
        </table></div>
      </section>`
    }
  `;
}
