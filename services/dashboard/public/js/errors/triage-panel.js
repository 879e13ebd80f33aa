import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { useData } from '../lib/use-data.js';
import { formatNumber, formatTime } from '../lib/format.js';
import { OwnershipPanel } from './ownership-panel.js';

// A group's triage (docs/alerts.md, "Triage"): its state, the actions on it, where it happens
// (releases, environments), who owns it (ownership-panel.js) and its activity: every change
// with who and when.

export const STATUS_LABELS = {
  new: 'New',
  ongoing: 'Unresolved',
  regressed: 'Regressed',
  escalating: 'Escalating',
  resolved: 'Resolved',
  resolved_in_release: 'Resolved in release',
  ignored_forever: 'Ignored',
  ignored_until: 'Ignored until',
  ignored_count: 'Ignored for a count',
};

export function stateLabel(s) {
  if (!s) return '';
  if (s.substatus === 'resolved_in_release') return `Resolved in ${s.resolved_in_release}`;
  if (s.substatus === 'ignored_until') return `Ignored until ${formatTime(s.ignore_until, { seconds: false })}`;
  if (s.substatus === 'ignored_count') return `Ignored for ${formatNumber(s.ignore_events_left)} more events`;
  return STATUS_LABELS[s.substatus] || s.status;
}

/** Buttons that apply one action to some groups; `onDone` runs after the change. */
export function TriageActions({ projectId, fingerprints, onDone, release }) {
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState('');
  const act = async (body) => {
    setBusy(true);
    setErr('');
    try {
      await api(projectApi(projectId, '/error-groups/triage'), { method: 'POST', body: { fingerprints, ...body } });
      onDone?.();
    } catch (e) {
      setErr(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const inRelease = () => {
    const r = window.prompt('Resolved in which release? Events of newer releases will reopen it.', release || '');
    if (r) void act({ action: 'resolve_in_release', release: r });
  };
  const disabled = busy || fingerprints.length === 0;
  return html`<div class="triage-actions" data-testid="triage-actions">
    <button class="btn" disabled=${disabled} onClick=${() => act({ action: 'resolve' })}>Resolve</button>
    <button class="btn" disabled=${disabled} onClick=${inRelease}>Resolve in release…</button>
    <button class="btn" disabled=${disabled} onClick=${() => act({ action: 'ignore' })}>Ignore</button>
    <button class="btn" disabled=${disabled} onClick=${() => act({ action: 'ignore', ignore_minutes: 60 })}>Ignore 1 h</button>
    <button class="btn" disabled=${disabled} onClick=${() => act({ action: 'ignore', ignore_events: 100 })}>Ignore until 100 more</button>
    <button class="btn" disabled=${disabled} onClick=${() => act({ action: 'unresolve' })}>Unresolve</button>
    ${err && html`<span class="error-text">${err}</span>`}
  </div>`;
}

export function TriagePanel({ projectId, fingerprint }) {
  const { data, reload } = useData(() => api(projectApi(projectId, `/error-groups/${encodeURIComponent(fingerprint)}/triage`)), `${projectId}|${fingerprint}|triage`);
  if (!data) return null;
  return html`<section class="card" data-testid="triage">
    <h2>Triage: <span data-testid="group-state">${stateLabel(data.state)}</span></h2>
    <${TriageActions} projectId=${projectId} fingerprints=${[fingerprint]} onDone=${reload} release=${data.last_release} />
    <${OwnershipPanel} projectId=${projectId} fingerprint=${fingerprint} triage=${data} onChange=${reload} />
    <div class="grid-2">
      <div>
        <h3>Releases <span class="muted small">first ${data.first_release || '—'}, last ${data.last_release || '—'}</span></h3>
        <div class="table-wrap"><table class="table compact"><tbody>${data.by_release.map((r) => html`<tr><td>${r.release || '(none)'}</td><td class="num">${formatNumber(r.count)}</td></tr>`)}</tbody></table></div>
        <h3>Environments</h3>
        <div class="table-wrap"><table class="table compact"><tbody>${data.by_environment.map((r) => html`<tr><td>${r.environment || '(none)'}</td><td class="num">${formatNumber(r.count)}</td></tr>`)}</tbody></table></div>
      </div>
      <div>
        <h3>Activity</h3>
        <div class="table-wrap"><table class="table compact" data-testid="triage-history">
          <tbody>
            ${data.history.map(
              (h) =>
                html`<tr data-action=${h.action}><td class="nowrap mono">${formatTime(h.at)}</td><td>${h.action.replace(/_/g, ' ')}${h.details?.assignee ? ` to ${h.details.assignee}` : ''}</td><td>${h.actor.name}</td><td class="muted">${h.from_status ?? ''} → ${h.to_status}</td></tr>`,
            )}
          </tbody>
        </table></div>
      </div>
    </div>
  </section>`;
}
