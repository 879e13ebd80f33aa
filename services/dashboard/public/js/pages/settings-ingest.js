import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, adminApi } from '../lib/api.js';
import { ErrorBox } from '../components/status.js';

/**
 * A save action and its state: busy, then saved or the error.
 * @param {() => void} reloadProject
 * @returns {[{ busy: boolean, error: unknown, saved: boolean }, (fn: () => Promise<unknown>) => Promise<void>]}
 */
function useSave(reloadProject) {
  const [state, setState] = useState(/** @type {{ busy: boolean, error: unknown, saved: boolean }} */ ({ busy: false, error: null, saved: false }));
  const save = async (/** @type {() => Promise<unknown>} */ fn) => {
    setState({ busy: true, error: null, saved: false });
    try {
      await fn();
      setState({ busy: false, error: null, saved: true });
      reloadProject();
    } catch (error) {
      setState({ busy: false, error, saved: false });
    }
  };
  return [state, save];
}

export function OriginsTab({ project, reloadProject }) {
  const [text, setText] = useState(project.allowed_origins.join('\n'));
  const [state, save] = useSave(reloadProject);
  const submit = (e) => {
    e.preventDefault();
    const origins = text
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    void save(() => api(adminApi(project.id, '/allowed-origins'), { method: 'PUT', body: { origins } }));
  };
  return html`
    <h2>Allowed origins</h2>
    <p class="muted">
      Browser requests (those with an Origin header) are accepted only from these domains. Leave the list empty to accept every origin.
      Server-to-server requests (no Origin header) are always accepted. One domain or origin per line, for example
      <code>example.com</code> or <code>https://app.example.com</code>.
    </p>
    <form onSubmit=${submit} class="stack-form">
      <textarea name="origins" rows="6" data-testid="origins-input" value=${text} onInput=${(e) => setText(e.currentTarget.value)}></textarea>
      <div class="row">
        <button class="btn btn-primary" type="submit" disabled=${state.busy} data-testid="save-origins">Save origins</button>
        ${state.saved && html`<span class="ok-text" role="status">Saved. Applies to new requests at once.</span>`}
      </div>
      ${state.error && html`<${ErrorBox} error=${state.error} />`}
    </form>
    <p>Currently: ${project.allowed_origins.length === 0 ? html`<strong>all origins</strong>` : html`<span data-testid="current-origins">${project.allowed_origins.join(', ')}</span>`}</p>
  `;
}

export function RateLimitTab({ project, reloadProject }) {
  const [value, setValue] = useState(String(project.rate_limit_per_minute));
  const [state, save] = useSave(reloadProject);
  const submit = (e) => {
    e.preventDefault();
    void save(() => api(adminApi(project.id, '/rate-limit'), { method: 'PUT', body: { rate_limit_per_minute: Number(value) } }));
  };
  return html`
    <h2>Rate limit</h2>
    <p class="muted">Requests per minute for this project's key, counted across all receivers in fixed one-minute windows. Over the limit, requests get 429 with Retry-After.</p>
    <form onSubmit=${submit} class="inline-form">
      <label>Requests per minute
        <input name="rate-limit" type="number" min="1" max="10000000" step="1" required value=${value} onInput=${(e) => setValue(e.currentTarget.value)} />
      </label>
      <button class="btn btn-primary" type="submit" disabled=${state.busy}>Save</button>
      ${state.saved && html`<span class="ok-text" role="status">Saved.</span>`}
    </form>
    ${state.error && html`<${ErrorBox} error=${state.error} />`}
  `;
}
