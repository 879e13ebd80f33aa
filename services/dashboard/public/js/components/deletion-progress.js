import { html } from 'htm/preact';
import { formatTime } from '../lib/format.js';

const REASONS = { project: 'Whole project', events: 'Events', retention: 'Shorter retention' };

/** What a deletion covers, in words. */
function scope(d) {
  if (d.reason === 'project') return `project “${d.project_name}”`;
  const f = d.filter || {};
  const parts = [f.kinds ? f.kinds.join(', ') : 'all kinds'];
  if (f.service !== undefined) parts.push(`service “${f.service}”`);
  if (f.from) parts.push(`from ${formatTime(f.from)}`);
  if (f.to) parts.push(`${d.reason === 'retention' ? 'received before' : 'to'} ${formatTime(f.to)}`);
  return parts.join(', ');
}

/** Deletions with their progress (docs/data.md#deletion), newest first. */
export function DeletionList({ deletions }) {
  if (deletions.length === 0) return html`<p class="muted">No deletions yet.</p>`;
  return html`<table class="table" data-testid="deletions-table">
    <thead><tr><th>Requested</th><th>What</th><th>Status</th><th>Progress</th><th>Tables</th></tr></thead>
    <tbody>
      ${deletions.map(
        (d) => html`<tr key=${d.id} data-testid="deletion-row">
          <td>${formatTime(d.requested_at)}</td>
          <td><strong>${REASONS[d.reason] || d.reason}</strong>: ${scope(d)}</td>
          <td data-testid="deletion-status">${d.status}${d.status === 'running' ? ` (${d.phase})` : ''}${d.error ? html` <span class="error-text">${d.error}</span>` : ''}</td>
          <td><progress max="100" value=${d.percent} aria-label="deleted"></progress> <span data-testid="deletion-percent">${d.percent}%</span></td>
          <td class="muted">${Object.entries(d.tables)
            .map(([t, p]) => `${t}: ${p.rows_at_start - Math.min(p.remaining, p.rows_at_start)}/${p.rows_at_start}`)
            .join(' · ')}</td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}
