import { html } from 'htm/preact';
import { useState } from 'preact/hooks';

/** The username + password form of the setup and login pages; setup also asks for the setup code. */
export function AuthForm({ title, intro, submitLabel, passwordHint, autocomplete, onSubmit, codeLabel = '', codeHint = '' }) {
  const [code, setCode] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  const submit = async (e) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit(username, password, code);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return html`
    <div class="auth-page">
      <form class="card auth-card" onSubmit=${submit}>
        <div class="brand brand-large">devtrail</div>
        <h1>${title}</h1>
        ${intro && html`<p class="muted">${intro}</p>`}
        ${
          codeLabel &&
          html`<label>${codeLabel}
          <input name="setup-code" autocomplete="off" spellcheck="false" required value=${code} onInput=${(e) => setCode(e.currentTarget.value)} />
        </label>
        <p class="hint">${codeHint}</p>`
        }
        <label>Username
          <input name="username" autocomplete="username" required value=${username} onInput=${(e) => setUsername(e.currentTarget.value)} />
        </label>
        <label>Password
          <input name="password" type="password" autocomplete=${autocomplete} required value=${password} onInput=${(e) => setPassword(e.currentTarget.value)} />
        </label>
        ${passwordHint && html`<p class="hint">${passwordHint}</p>`}
        ${error && html`<div class="error-box" role="alert">${error}</div>`}
        <button class="btn btn-primary" type="submit" disabled=${busy}>${busy ? 'Please wait…' : submitLabel}</button>
      </form>
    </div>
  `;
}
