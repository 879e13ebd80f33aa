import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, adminApi } from '../lib/api.js';
import { formatTime } from '../lib/format.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { KeyReveal } from '../components/key-reveal.js';
import { ErrorBox } from '../components/status.js';
import { UploadTokens } from './settings-upload-tokens.js';

// Settings -> API Keys -> Revoke -> confirm. The old key stops working at once and
// a new one is generated and shown here, once.
export function ApiKeysTab({ project, reloadProject }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {unknown} */ (null));
  const [newKey, setNewKey] = useState(/** @type {string | null} */ (null));
  const revoke = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await api(adminApi(project.id, '/revoke-key'), { method: 'POST' });
      setNewKey(r.api_key);
      setConfirming(false);
      reloadProject();
    } catch (err) {
      setError(err);
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };
  return html`
    <h2>API key</h2>
    <p class="muted">One key per project, used by server and browser code alike. Only its prefix is stored for display.</p>
    <div class="table-wrap"><table class="table compact" data-testid="key-table">
      <thead><tr><th>Key</th><th>Created</th><th>Status</th><th></th></tr></thead>
      <tbody>
        <tr>
          <td><code data-testid="key-prefix">${project.key_prefix ? `${project.key_prefix}…` : 'none'}</code></td>
          <td>${project.key_created_at ? formatTime(project.key_created_at, { seconds: false, zone: true }) : '—'}</td>
          <td><span class="badge badge-ok">active</span></td>
          <td class="num"><button type="button" class="btn btn-danger btn-small" data-testid="revoke-key" onClick=${() => setConfirming(true)}>Revoke</button></td>
        </tr>
      </tbody>
    </table></div>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${newKey && html`<div class="created"><h3>New key</h3><${KeyReveal} apiKey=${newKey} onDone=${() => setNewKey(null)} /></div>`}
    <${ConfirmDialog}
      open=${confirming}
      title="Revoke this API key?"
      confirmLabel="Revoke key"
      danger=${true}
      busy=${busy}
      onConfirm=${revoke}
      onCancel=${() => setConfirming(false)}
    >
      <p>Key <code>${project.key_prefix}…</code> stops working immediately for every application that sends with it. Data already sent is kept.</p>
      <p>A new key is generated at once and shown to you one time.</p>
    </${ConfirmDialog}>
    <${UploadTokens} project=${project} />
  `;
}
