import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useData } from '../lib/use-data.js';
import { useSession } from '../lib/session.js';
import { ErrorBox, Loading } from '../components/status.js';

const membersPath = (projectId, rest = '') => `/auth/projects/${encodeURIComponent(projectId)}/members${rest}`;

export function MembersTab({ project }) {
  const { user } = useSession();
  const { data, error, reload } = useData(() => api(membersPath(project.id)), project.id);
  const [username, setUsername] = useState('');
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
  return html`
    <h2>Members</h2>
    <p class="muted">Members see this project's data and manage its settings. The owner sees every project.</p>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${!data && !error && html`<${Loading} />`}
    ${
      data &&
      html`<div class="table-wrap"><table class="table compact" data-testid="members-table">
      <thead><tr><th>User</th><th>Account created</th><th></th></tr></thead>
      <tbody>
        ${data.members.length === 0 && html`<tr><td colspan="3" class="muted">No members; only the owner sees this project.</td></tr>`}
        ${data.members.map(
          (m) => html`<tr key=${m.id}>
            <td>${m.username}${m.is_owner ? ' (owner)' : ''}</td>
            <td>${m.created_at.slice(0, 10)}</td>
            <td class="num">${user?.is_owner && !m.is_owner && html`<button type="button" class="btn btn-small" onClick=${() => act(() => api(membersPath(project.id, `/${encodeURIComponent(m.id)}`), { method: 'DELETE' }))}>Remove</button>`}</td>
          </tr>`,
        )}
      </tbody>
    </table></div>`
    }
    ${
      user?.is_owner &&
      html`<form class="inline-form spaced" onSubmit=${(e) => (e.preventDefault(), act(() => api(membersPath(project.id), { method: 'POST', body: { username } })).then(() => setUsername('')))}>
      <label>Add a user by username
        <input name="member-username" required value=${username} onInput=${(e) => setUsername(e.currentTarget.value)} />
      </label>
      <button class="btn btn-primary" type="submit">Add member</button>
    </form>`
    }
    ${actionError && html`<${ErrorBox} error=${actionError} />`}
  `;
}
