import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { ApiError, api, adminApi } from '../lib/api.js';
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

/** The entries of the origins box: one per line (a comma also separates), blank lines ignored; a line with a space in it stays one entry, refused as it is. @param {string} text */
export const originEntries = (text) =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The server's objections to the entries, one per line it refused: "Line 3 (“not a domain!!”): …".
 * @param {unknown} error
 * @param {string[]} entries
 */
function lineErrors(error, entries) {
  const issues = error instanceof ApiError && Array.isArray(error.body?.error?.issues) ? error.body.error.issues : [];
  return issues
    .filter((/** @type {any} */ i) => i.path?.[0] === 'origins' && typeof i.path[1] === 'number')
    .map((/** @type {any} */ i) => `Line ${i.path[1] + 1} (“${entries[i.path[1]]}”) ${i.message}.`);
}

export function OriginsTab({ project, reloadProject }) {
  const [text, setText] = useState(project.allowed_origins.join('\n'));
  const [state, save] = useSave(reloadProject);
  const [sent, setSent] = useState(/** @type {string[]} */ ([]));
  const submit = (e) => {
    e.preventDefault();
    const origins = originEntries(text);
    setSent(origins);
    void save(() => api(adminApi(project.id, '/allowed-origins'), { method: 'PUT', body: { origins } }));
  };
  const perLine = state.error ? lineErrors(state.error, sent) : [];
  return html`
    <h2>Allowed origins</h2>
    <p class="muted">
      Browser requests (those with an Origin header) are accepted only from these domains. Leave the list empty to accept every origin.
      Server-to-server requests (no Origin header) are always accepted. One domain or origin per line, for example <code>example.com</code> or <code>https://app.example.com</code>.
    </p>
    <form onSubmit=${submit} class="stack-form">
      <textarea name="origins" rows="6" data-testid="origins-input" value=${text} onInput=${(e) => setText(e.currentTarget.value)}></textarea>
      <div class="row">
        <button class="btn btn-primary" type="submit" disabled=${state.busy} data-testid="save-origins">Save origins</button>
        ${state.saved && html`<span class="ok-text" role="status">Saved. Applies to new requests at once.</span>`}
      </div>
      ${
        perLine.length > 0
          ? html`<div class="error-box" role="alert" data-testid="origin-errors">
            <p>Nothing was saved:</p>
            <ul>${perLine.map((m) => html`<li>${m}</li>`)}</ul>
          </div>`
          : state.error && html`<${ErrorBox} error=${state.error} />`
      }
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
