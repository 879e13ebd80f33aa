import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useSession } from '../lib/session.js';
import { Layout } from '../components/layout.js';
import { ErrorBox } from '../components/status.js';

// The signed-in user's own account: changing the password ends every other session.
export function AccountPage() {
  const { user, refresh } = useSession();
  const [form, setForm] = useState({ current_password: '', new_password: '' });
  const [state, setState] = useState(/** @type {{ error: unknown, done: boolean }} */ ({ error: null, done: false }));
  const submit = async (e) => {
    e.preventDefault();
    try {
      await api('/auth/password', { method: 'POST', body: form });
      setForm({ current_password: '', new_password: '' });
      setState({ error: null, done: true });
      await refresh(); // a new session, with its own CSRF token
    } catch (err) {
      setState({ error: err, done: false });
    }
  };
  return html`<${Layout}>
    <div class="page-head"><h1>Account</h1></div>
    <section class="card">
      <p>Signed in as <strong>${user?.username}</strong> (${user?.role}).</p>
      <h2>Change password</h2>
      <form class="inline-form" onSubmit=${submit}>
        <label>Current password<input name="current-password" type="password" autocomplete="current-password" required value=${form.current_password} onInput=${(e) => setForm({ ...form, current_password: e.currentTarget.value })} /></label>
        <label>New password<input name="new-password" type="password" autocomplete="new-password" minlength="12" required value=${form.new_password} onInput=${(e) => setForm({ ...form, new_password: e.currentTarget.value })} /></label>
        <button class="btn btn-primary" type="submit">Change password</button>
      </form>
      <p class="hint">At least 12 characters. Every other browser signed in as you is logged out.</p>
      ${state.done && html`<p class="ok-text" role="status">Password changed.</p>`}
      ${state.error && html`<${ErrorBox} error=${state.error} />`}
    </section>
  </${Layout}>`;
}
