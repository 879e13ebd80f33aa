import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { formatTime } from '../lib/format.js';
import { useData } from '../lib/use-data.js';
import { CopyButton } from '../components/copy-button.js';
import { ErrorBox, Loading } from '../components/status.js';

// Settings -> API Keys -> Upload tokens: the secrets a build pipeline uploads source maps with
// (docs/source-maps.md). A new token is shown here once; revoking one stops it at once.
export function UploadTokens({ project }) {
  const { data, error, reload } = useData(() => api(projectApi(project.id, '/upload-tokens')), project.id);
  const [name, setName] = useState('');
  const [created, setCreated] = useState(/** @type {string | null} */ (null));
  const [actionError, setActionError] = useState(/** @type {unknown} */ (null));
  const act = async (fn) => {
    setActionError(null);
    try {
      await fn();
      reload();
    } catch (err) {
      setActionError(err);
    }
  };
  const create = () =>
    act(async () => {
      const r = await api(projectApi(project.id, '/upload-tokens'), { method: 'POST', body: { name } });
      setCreated(r.token);
      setName('');
    });
  const command = created && `DEVTRAIL_UPLOAD_TOKEN=${created} npm run devtrail -- sourcemaps upload ${project.id} <build-dir> --release "$GIT_SHA"`;
  return html`
    <h2>Upload tokens</h2>
    <p class="muted">Secrets for build pipelines: they upload, list and delete this project's source maps, nothing else. The API key above ships in browsers and cannot.</p>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${!data && !error && html`<${Loading} />`}
    ${
      data &&
      html`<div class="table-wrap"><table class="table compact" data-testid="upload-token-table">
      <thead><tr><th>Name</th><th>Token</th><th>Created</th><th>Last used</th><th></th></tr></thead>
      <tbody>
        ${data.upload_tokens.length === 0 && html`<tr><td colspan="5" class="muted">No upload tokens.</td></tr>`}
        ${data.upload_tokens.map(
          (t) => html`<tr key=${t.id}>
            <td>${t.name}</td>
            <td><code>${t.prefix}…</code></td>
            <td>${formatTime(t.created_at, { seconds: false, zone: true })}</td>
            <td>${t.last_used_at ? formatTime(t.last_used_at, { seconds: false, zone: true }) : 'never'}</td>
            <td class="num"><button type="button" class="btn btn-danger btn-small" data-testid="revoke-upload-token" onClick=${() => act(() => api(projectApi(project.id, `/upload-tokens/${encodeURIComponent(t.id)}`), { method: 'DELETE' }))}>Revoke</button></td>
          </tr>`,
        )}
      </tbody>
    </table></div>`
    }
    <form class="inline-form spaced" onSubmit=${(e) => (e.preventDefault(), create())}>
      <label>Name (what uses it)
        <input name="upload-token-name" required maxlength="100" value=${name} onInput=${(e) => setName(e.currentTarget.value)} />
      </label>
      <button class="btn btn-primary" type="submit" data-testid="create-upload-token">Create upload token</button>
    </form>
    ${
      created &&
      html`<div class="key-reveal" role="region" aria-label="New upload token">
      <p class="warning">Copy this token now. It is shown only once; devtrail keeps only its hash.</p>
      <div class="key-line">
        <code class="api-key" data-testid="new-upload-token">${created}</code>
        <${CopyButton} text=${created} label="Copy token" />
      </div>
      <div class="snippet"><pre>${command}</pre><${CopyButton} text=${command} label="Copy command" /></div>
      <button type="button" class="btn" onClick=${() => setCreated(null)}>I have stored the token</button>
    </div>`
    }
    ${actionError && html`<${ErrorBox} error=${actionError} />`}
  `;
}
