import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useData } from '../lib/use-data.js';
import { useSession } from '../lib/session.js';
import { formatTime } from '../lib/format.js';
import { Layout } from '../components/layout.js';
import { ErrorBox, Loading } from '../components/status.js';

// Owner only: the accounts of this devtrail. A member reads and changes the projects they
// belong to, a viewer only reads them; disabling an account logs it out everywhere.
// Membership is granted per project (Settings → Members).
export function UsersPage() {
  const { user } = useSession();
  const { data, error, reload } = useData(() => api('/auth/users'), 'users');
  const [form, setForm] = useState({ username: '', password: '', role: 'member' });
  const [state, setState] = useState(/** @type {{ error: unknown, created: string | null }} */ ({ error: null, created: null }));
  if (!user?.is_owner) return html`<${Layout}><${ErrorBox} error=${new Error('Only the owner manages users.')} /></${Layout}>`;
  const submit = async (e) => {
    e.preventDefault();
    try {
      const r = await api('/auth/users', { method: 'POST', body: form });
      setState({ error: null, created: r.user.username });
      setForm({ username: '', password: '', role: 'member' });
      reload();
    } catch (err) {
      setState({ error: err, created: null });
    }
  };
  const change = async (id, body) => {
    try {
      await api(`/auth/users/${encodeURIComponent(id)}`, { method: 'PATCH', body });
      setState({ error: null, created: null });
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
        <label>Initial password<input name="new-password" type="password" autocomplete="new-password" minlength="12" required value=${form.password} onInput=${(e) => setForm({ ...form, password: e.currentTarget.value })} /></label>
        <label>Role
          <select name="new-role" value=${form.role} onChange=${(e) => setForm({ ...form, role: e.currentTarget.value })}>
            <option value="member">member (reads and changes its projects)</option>
            <option value="viewer">viewer (reads only)</option>
          </select>
        </label>
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
      <thead><tr><th>Username</th><th>Role</th><th>Status</th><th>Created</th><th></th></tr></thead>
      <tbody>${data.users.map(
        (u) => html`<tr key=${u.id}>
          <td>${u.username}</td>
          <td>${
            u.is_owner
              ? 'owner'
              : html`<select aria-label=${`Role of ${u.username}`} value=${u.role} onChange=${(e) => change(u.id, { role: e.currentTarget.value })}>
                  <option value="member">member</option><option value="viewer">viewer</option>
                </select>`
          }</td>
          <td>${u.disabled ? 'disabled' : 'active'}</td>
          <td>${formatTime(u.created_at, { seconds: false, zone: true })}</td>
          <td>${
            !u.is_owner &&
            html`<button type="button" class="btn btn-small" onClick=${() => change(u.id, { disabled: !u.disabled })}>${u.disabled ? `Enable ${u.username}` : `Disable ${u.username}`}</button>`
          }</td>
        </tr>`,
      )}</tbody>
    </table></div>`
    }
  </${Layout}>`;
}
