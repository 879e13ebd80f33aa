import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { useData } from '../lib/use-data.js';
import { formatNumber, formatTime, timeAgo } from '../lib/format.js';
import { Link } from '../lib/router.js';
import { projectHref } from '../lib/view-state.js';

// Who owns a group (docs/alerts.md, "Owning an issue"): its assignee, comments, and the open
// groups similar to it, each offered for a merge into this one.

const groupApi = (projectId, fingerprint, path) => projectApi(projectId, `/error-groups/${encodeURIComponent(fingerprint)}/${path}`);

function useAction(onDone) {
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState('');
  const run = async (fn) => {
    setBusy(true);
    setErr('');
    try {
      await fn();
      onDone?.();
    } catch (e) {
      setErr(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, err, run };
}

function Assignee({ projectId, fingerprint, triage, onChange }) {
  const { busy, err, run } = useAction(onChange);
  const assign = (userId) => run(() => api(groupApi(projectId, fingerprint, 'assignee'), { method: 'PUT', body: { user_id: userId || null } }));
  const people = [...triage.assignable];
  if (triage.assignee && !people.some((p) => p.id === triage.assignee.id)) people.push(triage.assignee);
  return html`<label class="filter">Assignee
    <select data-testid="assignee-select" disabled=${busy} value=${triage.assignee?.id ?? ''} onChange=${(e) => assign(e.currentTarget.value)}>
      <option value="">Unassigned</option>
      ${people.map((p) => html`<option value=${p.id}>${p.name}</option>`)}
    </select>
    ${err && html`<span class="error-text">${err}</span>`}
  </label>`;
}

function Comments({ projectId, fingerprint }) {
  const { data, reload } = useData(() => api(groupApi(projectId, fingerprint, 'comments')), `${projectId}|${fingerprint}|comments`);
  const [draft, setDraft] = useState('');
  const { busy, err, run } = useAction(() => (setDraft(''), reload()));
  const send = (e) => {
    e.preventDefault();
    if (draft.trim()) void run(() => api(groupApi(projectId, fingerprint, 'comments'), { method: 'POST', body: { body: draft } }));
  };
  return html`<div data-testid="comments">
    <h3>Comments</h3>
    <ul class="comments">
      ${(data?.comments ?? []).map(
        (c) =>
          html`<li data-testid="comment"><span class="muted small">${c.actor.name} · <span title=${formatTime(c.at, { zone: true })}>${timeAgo(c.at)}</span></span><p class="comment-body">${c.body}</p></li>`,
      )}
    </ul>
    <form class="comment-form" onSubmit=${send}>
      <textarea data-testid="comment-input" maxlength="2000" rows="2" placeholder="Add a comment" value=${draft} onInput=${(e) => setDraft(e.currentTarget.value)}></textarea>
      <button class="btn" type="submit" disabled=${busy || !draft.trim()}>Comment</button>
      ${err && html`<span class="error-text">${err}</span>`}
    </form>
  </div>`;
}

function Similar({ projectId, fingerprint, onChange }) {
  const { data, reload } = useData(() => api(groupApi(projectId, fingerprint, 'similar')), `${projectId}|${fingerprint}|similar`);
  const { busy, err, run } = useAction(() => (reload(), onChange?.()));
  const merge = (other) => run(() => api(groupApi(projectId, other, 'merge'), { method: 'POST', body: { into: fingerprint } }));
  const list = data?.similar ?? [];
  return html`<div data-testid="similar-issues">
    <h3>Similar issues</h3>
    ${list.length === 0 && html`<p class="muted small">No open group looks like this one.</p>`}
    <ul class="similar">
      ${list.map(
        (s) => html`<li data-testid="similar-issue">
          <${Link} href=${projectHref(projectId, `errors/${s.fingerprint}`)}><strong>${s.error_type}</strong>: ${s.error_message}</${Link}>
          <span class="muted small"> ${s.reason === 'frames' ? `${Math.round(s.overlap * 100)}% of frames shared` : 'same message'} · ${formatNumber(s.count)} events</span>
          <button class="btn small" disabled=${busy} onClick=${() => merge(s.fingerprint)}>Merge into this</button>
        </li>`,
      )}
    </ul>
    ${err && html`<span class="error-text">${err}</span>`}
  </div>`;
}

export function OwnershipPanel({ projectId, fingerprint, triage, onChange }) {
  return html`<div class="ownership" data-testid="ownership">
    <${Assignee} projectId=${projectId} fingerprint=${fingerprint} triage=${triage} onChange=${onChange} />
    <div class="grid-2">
      <${Comments} projectId=${projectId} fingerprint=${fingerprint} />
      <${Similar} projectId=${projectId} fingerprint=${fingerprint} onChange=${onChange} />
    </div>
  </div>`;
}
