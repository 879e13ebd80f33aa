import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, adminApi } from '../lib/api.js';
import { ingestBase, useSession } from '../lib/session.js';
import { CopyButton } from '../components/copy-button.js';
import { ErrorBox } from '../components/status.js';

function randomSecret() {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function DrainTab({ project, reloadProject }) {
  const { config } = useSession();
  const endpoint = `${ingestBase(config)}/ingest/drain`;
  const [secret, setSecret] = useState('');
  const [state, setState] = useState(
    /** @type {{ busy: boolean, error: unknown, saved: string | null, secret?: string | null }} */ ({ busy: false, error: null, saved: null }),
  );
  const put = async (value) => {
    setState({ busy: true, error: null, saved: null });
    try {
      await api(adminApi(project.id, '/drain-secret'), { method: 'PUT', body: { secret: value } });
      setState({
        busy: false,
        error: null,
        saved: value === null ? 'Secret removed; drain requests are no longer signature-checked.' : 'Secret saved. Enter the same value in Vercel:',
        secret: value,
      });
      setSecret('');
      reloadProject();
    } catch (error) {
      setState({ busy: false, error, saved: null });
    }
  };
  return html`
    <h2>Log drain</h2>
    <p class="muted">A hosting platform can forward your deployment's logs here. They appear in Logs like any other.</p>
    <h3>Endpoint</h3>
    <div class="key-line"><code data-testid="drain-url">${endpoint}</code><${CopyButton} text=${endpoint} /></div>
    <h3>Vercel setup</h3>
    <ol class="steps">
      <li>In the Vercel dashboard open <em>Team Settings → Drains</em> (or <em>Project Settings → Log Drains</em>) and add a drain.</li>
      <li>Delivery format: <strong>JSON</strong>; URL: the endpoint above.</li>
      <li>Add a custom header <code>Authorization</code> with the value <code>Bearer ${project.key_prefix || 'dt_'}…</code> (this project's API key).</li>
      <li>Optional: set a signature secret in Vercel and the same secret below. devtrail then checks each request's <code>x-vercel-signature</code> (HMAC-SHA1 of the body) and refuses unsigned or forged deliveries.</li>
    </ol>
    <h3>Signature secret</h3>
    <p>Status: <strong data-testid="drain-secret-status">${project.has_drain_secret ? 'set' : 'not set'}</strong></p>
    <form class="inline-form" onSubmit=${(e) => (e.preventDefault(), put(secret))}>
      <label>New secret (8–200 characters)
        <input name="drain-secret" type="text" autocomplete="off" minlength="8" maxlength="200" value=${secret} onInput=${(e) => setSecret(e.currentTarget.value)} />
      </label>
      <button type="button" class="btn" onClick=${() => setSecret(randomSecret())}>Generate</button>
      <button type="submit" class="btn btn-primary" disabled=${state.busy || secret.length < 8}>Save secret</button>
      ${project.has_drain_secret && html`<button type="button" class="btn btn-danger" disabled=${state.busy} onClick=${() => put(null)}>Remove secret</button>`}
    </form>
    ${state.saved && html`<p class="ok-text" role="status">${state.saved}</p>`}
    ${state.secret && html`<div class="key-line"><code data-testid="saved-drain-secret">${state.secret}</code><${CopyButton} text=${state.secret} label="Copy secret" /></div>`}
    ${state.error && html`<${ErrorBox} error=${state.error} />`}
  `;
}
