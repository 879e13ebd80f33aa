import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useData } from '../lib/use-data.js';
import { useSession } from '../lib/session.js';
import { formatTime } from '../lib/format.js';
import { Layout } from '../components/layout.js';
import { ErrorBox, Loading } from '../components/status.js';

// Owner only: the accounts of this devtrail. Membership is granted per project (Settings → Members).
export function UsersPage() {
  const { user } = useSession();
  const { data, error, reload } = useData(() => api('/auth/users'), 'users');
  const [form, setForm] = useState({ username: '', password: '' });
  const [state, setState] = useState(/** @type {{ error: unknown, created: string | null }} */ ({ error: null, created: null }));
  if (!user?.is_owner) return html`<${Layout}><${ErrorBox} error=${new Error('Only the owner manages users.')} /></${Layout}>`;
  const submit = async (e) => {
    e.preventDefault();
    try {
      const r = await api('/auth/users', { method: 'POST', body: form });
      setState({ error: null, created: r.user.username });
      setForm({ username: '', password: '' });
      reload();
    } catch (err) {
      setState({ error: err, created: null });
    }
  };
  return html`<${Layout}>
    <div class="page-head"><h1>Users</h1></div>
    <section class="card">
      <h2>Add a user</h2>
      <form class="inline-form" onSubmit=${submit}>
        <label>Username<input name="new-username" required value=${form.username} onInput=${(e) => setForm({ ...form, username: e.currentTarget.value })} /></label>
        <label>Initial password<input name="new-password" type="password" autocomplete="new-password" minlength="8" required value=${form.password} onInput=${(e) => setForm({ ...form, password: e.currentTarget.value })} /></label>
        <button class="btn btn-primary" type="submit">Add user</button>
      </form>
      ${state.created && html`<p class="ok-text" role="status">User ${state.created} added. Grant access per project under Settings → Members.</p>`}
      ${state.error && html`<${ErrorBox} error=${state.error} />`}
    </section>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${!data && !error && html`<${Loading} />`}
    ${
      data &&
      html`<div class="table-wrap"><table class="table" data-testid="users-table">
      <thead><tr><th>Username</th><th>Role</th><th>Created</th></tr></thead>
      <tbody>${data.users.map((u) => html`<tr key=${u.id}><td>${u.username}</td><td>${u.is_owner ? 'owner' : 'member'}</td><td>${formatTime(u.created_at, { seconds: false, zone: true })}</td></tr>`)}</tbody>
    </table></div>`
    }
  </${Layout}>`;
}
