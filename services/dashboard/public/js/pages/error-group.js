import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { ApiError, api, projectApi } from '../lib/api.js';
import { Link } from '../lib/router.js';
import { useData } from '../lib/use-data.js';
import { formatNumber, formatTime, zoneLabel } from '../lib/format.js';
import { aroundParams, projectHref } from '../lib/view-state.js';
import { fieldTerm } from '../lib/search-text.js';
import { ErrorTitle } from './errors.js';
import { Badge } from '../components/badges.js';
import { JsonView } from '../components/json-view.js';
import { ErrorBox, Loading, Empty } from '../components/status.js';
import { SymbolicatedStack } from '../components/symbolicated-stack.js';
import { TriagePanel } from '../components/triage-panel.js';

function Breadcrumbs({ items }) {
  if (!Array.isArray(items) || items.length === 0) return html`<span class="muted">none</span>`;
  return html`<div class="table-wrap"><table class="table compact" data-testid="breadcrumbs">
    <thead><tr><th>Time</th><th>Type</th><th>Message</th></tr></thead>
    <tbody>
      ${items.map(
        (b) => html`<tr>
          <td class="nowrap mono">${b?.timestamp ? formatTime(b.timestamp) : ''}</td>
          <td>${b && typeof b.type === 'string' ? b.type : ''}</td>
          <td class="message">${b && typeof b.message === 'string' ? b.message : JSON.stringify(b)}</td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

function Occurrence({ e, projectId, fingerprint }) {
  return html`
    <${SymbolicatedStack} projectId=${projectId} fingerprint=${fingerprint} eventId=${e.event_id} />
    <section class="card">
      <h2>Stack trace <span class="muted small">(${formatTime(e.timestamp, { zone: true })})</span></h2>
      <pre class="stack" data-testid="stack-trace">${e.stack_trace}</pre>
    </section>
    <div class="grid-2">
      <section class="card">
        <h2>Breadcrumbs</h2>
        <${Breadcrumbs} items=${e.breadcrumbs} />
      </section>
      <section class="card">
        <h2>Details</h2>
        <dl class="fields">
          <dt>User</dt><dd data-testid="error-user">${e.user_id || '—'}</dd>
          <dt>Service</dt><dd>${e.service}</dd>
          <dt>Environment</dt><dd>${e.environment}</dd>
          <dt>Release</dt><dd>${e.release || '—'}</dd>
          <dt>Severity</dt><dd><${Badge} value=${e.severity} /></dd>
          <dt>Trace</dt>
          <dd>
            ${
              e.trace_id
                ? html`<${Link} href=${projectHref(projectId, `traces/${encodeURIComponent(e.trace_id)}`)} data-testid="error-trace-link">${e.trace_id}</${Link}>
                  · <${Link} href=${projectHref(projectId, 'logs', { q: fieldTerm('trace_id', e.trace_id), ...aroundParams(Date.parse(e.timestamp), Date.parse(e.timestamp), 3600_000) })}
                      data-testid="error-trace-logs">its logs</${Link}>`
                : '—'
            }
          </dd>
          <dt>Logs</dt>
          <dd>
            <${Link} href=${projectHref(projectId, 'logs', { q: null, service: e.service, ...aroundParams(Date.parse(e.timestamp), Date.parse(e.timestamp)) })} data-testid="error-logs-around">
              ${e.service} ±5 min</${Link}>
            · <${Link} href=${projectHref(projectId, 'logs', { q: null, service: null, ...aroundParams(Date.parse(e.timestamp), Date.parse(e.timestamp)) })}>all services ±5 min</${Link}>
          </dd>
        </dl>
        <h3>Context</h3>
        <${JsonView} value=${e.context} />
      </section>
    </div>
  `;
}

export function ErrorGroupPage({ project, params }) {
  const fp = params.fingerprint;
  const { data, error } = useData(() => api(projectApi(project.id, `/error-groups/${encodeURIComponent(fp)}`)), `${project.id}|${fp}`);
  const [selected, setSelected] = useState(0);
  if (error instanceof ApiError && error.status === 404) return html`<${Empty}>This error group does not exist in this project.</${Empty}>`;
  if (error) return html`<${ErrorBox} error=${error} />`;
  if (!data) return html`<${Loading} />`;
  const { group, recent } = data;
  const current = recent[Math.min(selected, recent.length - 1)];
  return html`
    <div class="page-head">
      <div>
        <${Link} href=${projectHref(project.id, 'errors')} class="back">← Errors</${Link}>
        <h1 class="error-heading" data-testid="error-heading"><${ErrorTitle} type=${group.latest.error_type} message=${group.latest.error_message} /></h1>
      </div>
    </div>
    <div class="stats">
      <div class="stat"><span class="stat-label">Events</span><span class="stat-value">${formatNumber(group.count)}</span></div>
      <div class="stat"><span class="stat-label">First seen</span><span class="stat-value small">${formatTime(group.first_seen, { seconds: false, zone: true })}</span></div>
      <div class="stat"><span class="stat-label">Last seen</span><span class="stat-value small">${formatTime(group.last_seen, { seconds: false, zone: true })}</span></div>
      <div class="stat"><span class="stat-label">Highest severity</span><span class="stat-value"><${Badge} value=${group.max_severity} /></span></div>
      <div class="stat"><span class="stat-label">Fingerprint</span><span class="stat-value mono small">${group.fingerprint.slice(0, 16)}…</span></div>
    </div>
    <${TriagePanel} projectId=${project.id} fingerprint=${fp} />
    ${current ? html`<${Occurrence} e=${current} projectId=${project.id} fingerprint=${fp} />` : html`<section class="card"><h2>Latest stack trace</h2><pre class="stack">${group.latest.stack_trace}</pre></section>`}
    <section class="card">
      <h2>Recent occurrences</h2>
      <div class="table-wrap"><table class="table compact" data-testid="occurrences">
        <thead><tr><th>Time <span class="muted small">(${zoneLabel()})</span></th><th>Service</th><th>Environment</th><th>Release</th><th>User</th><th>Severity</th></tr></thead>
        <tbody>
          ${recent.map(
            (e, i) => html`<tr key=${e.event_id} class=${i === selected ? 'selected clickable' : 'clickable'} onClick=${() => setSelected(i)}>
              <td class="nowrap mono">${formatTime(e.timestamp)}</td>
              <td>${e.service}</td>
              <td>${e.environment}</td>
              <td>${e.release || '—'}</td>
              <td>${e.user_id || '—'}</td>
              <td><${Badge} value=${e.severity} /></td>
            </tr>`,
          )}
        </tbody>
      </table></div>
    </section>
  `;
}
