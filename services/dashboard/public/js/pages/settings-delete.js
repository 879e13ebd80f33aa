import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, adminApi } from '../lib/api.js';
import { navigate } from '../lib/router.js';
import { useData, useInterval } from '../lib/use-data.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { DeletionList } from '../components/deletion-progress.js';
import { ErrorBox, Loading } from '../components/status.js';

// Deleting a project's events (a service, a time range) or the project itself, and the
// progress of its deletions (docs/data.md#deletion).

const KIND_NAMES = ['logs', 'errors', 'spans', 'llm'];
const iso = (/** @type {string} */ local) => (local ? new Date(local).toISOString() : undefined);

export function DeleteTab({ project }) {
  const list = useData(() => api(adminApi(project.id, '/deletions')), project.id);
  const running = (list.data?.deletions || []).some((d) => d.status === 'pending' || d.status === 'running');
  useInterval(list.reload, 1500, running);
  const [f, setF] = useState({ service: '', from: '', to: '', kinds: /** @type {string[]} */ ([]) });
  const [confirm, setConfirm] = useState(/** @type {'events' | 'project' | null} */ (null));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {unknown} */ (null));
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      if (confirm === 'project') {
        await api(adminApi(project.id), { method: 'DELETE' });
        navigate('/projects');
        return;
      }
      const body = {
        ...(f.service ? { service: f.service } : {}),
        ...(f.from ? { from: iso(f.from) } : {}),
        ...(f.to ? { to: iso(f.to) } : {}),
        ...(f.kinds.length ? { kinds: f.kinds } : {}),
      };
      await api(adminApi(project.id, '/deletions'), { method: 'POST', body });
      list.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      setConfirm(null);
    }
  };
  const toggleKind = (k) => setF({ ...f, kinds: f.kinds.includes(k) ? f.kinds.filter((x) => x !== k) : [...f.kinds, k] });
  return html`
    <h2>Delete events</h2>
    <p class="muted">Deletes stored events of this project that match all of the filters (none: every event). ClickHouse hides them at once and frees their space at its next merges.</p>
    <form class="stack-form" onSubmit=${(e) => (e.preventDefault(), setConfirm('events'))}>
      <div class="inline-form">
        <label>Service <input name="delete-service" placeholder="any" value=${f.service} onInput=${(e) => setF({ ...f, service: e.currentTarget.value })} /></label>
        <label>From <input name="delete-from" type="datetime-local" value=${f.from} onInput=${(e) => setF({ ...f, from: e.currentTarget.value })} /></label>
        <label>To <input name="delete-to" type="datetime-local" value=${f.to} onInput=${(e) => setF({ ...f, to: e.currentTarget.value })} /></label>
      </div>
      <div class="row">${KIND_NAMES.map((k) => html`<label class="check"><input type="checkbox" checked=${f.kinds.includes(k)} onChange=${() => toggleKind(k)} /> ${k}</label>`)}</div>
      <div class="row"><button class="btn btn-danger" type="submit" data-testid="delete-events">Delete events…</button></div>
    </form>
    <h2>Deletions</h2>
    ${list.loading && !list.data && html`<${Loading} />`}
    ${list.error && html`<${ErrorBox} error=${list.error} />`}
    ${list.data && html`<${DeletionList} deletions=${list.data.deletions} />`}
    <h2>Delete project</h2>
    <p class="muted">Deletes the project, its API key and settings at once, and all its events in the background. Its events still on their way are never stored.</p>
    <button class="btn btn-danger" type="button" data-testid="delete-project" onClick=${() => setConfirm('project')}>Delete project…</button>
    ${error && html`<${ErrorBox} error=${error} />`}
    <${ConfirmDialog} open=${confirm !== null} danger=${true} busy=${busy} title=${confirm === 'project' ? `Delete ${project.name}?` : 'Delete these events?'}
      confirmLabel=${confirm === 'project' ? 'Delete project' : 'Delete events'} onConfirm=${run} onCancel=${() => setConfirm(null)}>
      <p>${confirm === 'project' ? 'The project, its key and every event it sent are deleted. This cannot be undone.' : 'The matching events are deleted. This cannot be undone.'}</p>
    </${ConfirmDialog}>
  `;
}

/** Deletions of every project the user may see, for the projects page (deleted projects have no page of their own). */
export function RecentDeletions() {
  const list = useData(() => api('/api/admin/deletions'), 'deletions');
  const deletions = (list.data?.deletions || []).filter((d) => d.reason === 'project');
  const running = deletions.some((d) => d.status === 'pending' || d.status === 'running');
  useInterval(list.reload, 1500, running);
  if (deletions.length === 0) return null;
  return html`<section class="card"><h2>Deleted projects</h2><${DeletionList} deletions=${deletions} /></section>`;
}
