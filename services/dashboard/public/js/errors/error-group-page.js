import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { ApiError, api, projectApi } from '../lib/api.js';
import { Link, setQuery, useLocation } from '../lib/router.js';
import { useData } from '../lib/use-data.js';
import { formatNumber, formatTime, timeAgo, zoneLabel } from '../lib/format.js';
import { aroundParams, projectHref } from '../lib/view-state.js';
import { fieldTerm } from '../lib/search-text.js';
import { ErrorTitle } from './errors-page.js';
import { Badge } from '../components/badges.js';
import { JsonView } from '../components/json-view.js';
import { ErrorBox, Loading, Empty } from '../components/status.js';
import { SymbolicatedStack } from '../components/symbolicated-stack.js';
import { GroupChart } from './group-chart.js';
import { TagBreakdown } from './tag-breakdown.js';
import { TriagePanel } from './triage-panel.js';

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
                ? html`<${Link} href=${traceHref(projectId, e)} data-testid="error-trace-link">${e.trace_id}</${Link}>
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

/** An occurrence's trace, opened at the span that failed (OTLP's exception event names it). */
function traceHref(projectId, e) {
  const span = e.context && typeof e.context['otel.span_id'] === 'string' ? e.context['otel.span_id'] : null;
  return projectHref(projectId, `traces/${encodeURIComponent(e.trace_id)}`, { span });
}

/** The users who met the group most. */
function TopUsers({ users }) {
  if (!users || users.length === 0) return html`<p class="muted small">Reported without a user.</p>`;
  return html`<div class="table-wrap"><table class="table compact" data-testid="group-top-users">
    <thead><tr><th>User</th><th class="num">Events</th><th>Last seen</th></tr></thead>
    <tbody>
      ${users.map(
        (u) =>
          html`<tr><td class="mono">${u.user_id}</td><td class="num">${formatNumber(u.count)}</td><td class="nowrap" title=${formatTime(u.last_seen, { zone: true })}>${timeAgo(u.last_seen)}</td></tr>`,
      )}
    </tbody>
  </table></div>`;
}

/** Every release the group was seen in, first and last time. */
function Releases({ releases }) {
  if (releases.length === 0) return html`<p class="muted">Reported without a release.</p>`;
  return html`<div class="table-wrap"><table class="table compact" data-testid="group-releases">
    <thead><tr><th>Release</th><th>First seen</th><th>Last seen</th><th class="num">Events</th></tr></thead>
    <tbody>
      ${releases.map(
        (r) => html`<tr>
          <td class="mono">${r.release}</td>
          <td class="nowrap" title=${formatTime(r.first_seen, { zone: true })}>${timeAgo(r.first_seen)}</td>
          <td class="nowrap" title=${formatTime(r.last_seen, { zone: true })}>${timeAgo(r.last_seen)}</td>
          <td class="num">${formatNumber(r.count)}</td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

export function ErrorGroupPage({ project, params }) {
  const fp = params.fingerprint;
  const { data, error } = useData(() => api(projectApi(project.id, `/error-groups/${encodeURIComponent(fp)}`)), `${project.id}|${fp}`);
  const { query } = useLocation();
  // The occurrence shown is in the URL (?event=), so that Back and a shared link keep it; "has
  // trace" (?has_trace=1) lists only occurrences reported with a trace.
  const selectedId = query.get('event');
  const hasTrace = query.get('has_trace') === '1';
  const traced = useData(
    () =>
      hasTrace && data
        ? api(projectApi(project.id, '/errors'), {
            query: { fingerprint: data.group.fingerprint, from: Date.parse(data.group.first_seen), has_trace: 'true', limit: 50 },
          })
        : Promise.resolve(null),
    `${project.id}|${fp}|traced|${hasTrace}|${data ? 1 : 0}`,
  );
  // Older occurrences, page by page (GET /errors with the group's cursor).
  const [more, setMore] = useState(
    /** @type {{ errors: any[], cursor: string | null, busy: boolean, error: unknown }} */ ({ errors: [], cursor: null, busy: false, error: null }),
  );
  if (error instanceof ApiError && error.status === 404) return html`<${Empty}>This error group does not exist in this project.</${Empty}>`;
  if (error) return html`<${ErrorBox} error=${error} />`;
  if (!data) return html`<${Loading} />`;
  const { group } = data;
  const recent = hasTrace ? [...(traced.data?.errors ?? []), ...more.errors] : [...data.recent, ...more.errors];
  const cursor = more.errors.length > 0 ? more.cursor : hasTrace ? (traced.data?.next_cursor ?? null) : data.next_cursor;
  const loadMore = async () => {
    setMore({ ...more, busy: true, error: null });
    try {
      const r = await api(projectApi(project.id, '/errors'), {
        query: { fingerprint: group.fingerprint, from: Date.parse(group.first_seen), cursor, limit: 50, ...(hasTrace ? { has_trace: 'true' } : {}) },
      });
      setMore({ errors: [...more.errors, ...r.errors], cursor: r.next_cursor, busy: false, error: null });
    } catch (e) {
      setMore({ ...more, busy: false, error: e });
    }
  };
  const found = selectedId ? recent.findIndex((e) => e.event_id === selectedId) : -1;
  const selected = Math.max(found, 0);
  const current = recent[selected];
  const select = (e) => setQuery({ event: e.event_id }, { replace: false });
  return html`
    <div class="page-head">
      <div>
        <${Link} href=${projectHref(project.id, 'errors')} class="back">← Errors</${Link}>
        <h1 class="error-heading" data-testid="error-heading"><${ErrorTitle} type=${group.latest.error_type} message=${group.latest.error_message} /></h1>
      </div>
    </div>
    <div class="stats">
      <div class="stat"><span class="stat-label">Events</span><span class="stat-value" data-testid="group-count">${formatNumber(group.count)}</span></div>
      <div class="stat"><span class="stat-label">Users</span><span class="stat-value" data-testid="group-users">${formatNumber(group.users)}</span></div>
      <div class="stat"><span class="stat-label">First seen</span><span class="stat-value small">${formatTime(group.first_seen, { seconds: false, zone: true })}</span></div>
      <div class="stat"><span class="stat-label">Last seen</span><span class="stat-value small">${formatTime(group.last_seen, { seconds: false, zone: true })}</span></div>
      <div class="stat"><span class="stat-label">Highest severity</span><span class="stat-value"><${Badge} value=${group.max_severity} /></span></div>
      <div class="stat"><span class="stat-label">Fingerprint</span><span class="stat-value mono small">${group.fingerprint.slice(0, 16)}…</span></div>
    </div>
    <section class="card">
      <h2>Events over time</h2>
      <${GroupChart} chart=${data.chart} releases=${data.releases} />
    </section>
    <div class="grid-2">
      <section class="card">
        <h2>Tags</h2>
        <${TagBreakdown} tags=${data.tags} total=${group.count} />
      </section>
      <section class="card">
        <h2>Most affected users</h2>
        <${TopUsers} users=${data.top_users} />
        <h2>Releases</h2>
        <${Releases} releases=${data.releases} />
        ${data.merged.length > 0 && html`<p class="muted small" data-testid="merged-groups">${data.merged.length} group${data.merged.length === 1 ? '' : 's'} merged into this one.</p>`}
      </section>
    </div>
    <${TriagePanel} projectId=${project.id} fingerprint=${group.fingerprint} />
    ${current ? html`<${Occurrence} e=${current} projectId=${project.id} fingerprint=${group.fingerprint} />` : html`<section class="card"><h2>Latest stack trace</h2><pre class="stack">${group.latest.stack_trace}</pre></section>`}
    <section class="card">
      <h2>Occurrences <span class="muted small">(${formatNumber(recent.length)} of ${formatNumber(group.count)})</span></h2>
      <label class="filter check">
        <input type="checkbox" data-testid="has-trace" checked=${hasTrace} onChange=${(e) => (setMore({ errors: [], cursor: null, busy: false, error: null }), setQuery({ has_trace: e.currentTarget.checked ? '1' : null, event: null }, { replace: false }))} />
        Has trace
      </label>
      <div class="table-wrap"><table class="table compact" data-testid="occurrences">
        <thead><tr><th>Time <span class="muted small">(${zoneLabel()})</span></th><th>Service</th><th>Environment</th><th>Release</th><th>User</th><th>Severity</th><th>Trace</th></tr></thead>
        <tbody>
          ${recent.map(
            (e, i) => html`<tr key=${e.event_id} data-event=${e.event_id} class=${i === selected ? 'selected clickable' : 'clickable'} onClick=${() => select(e)}>
              <td class="nowrap mono">${formatTime(e.timestamp)}</td>
              <td>${e.service}</td>
              <td>${e.environment}</td>
              <td>${e.release || '—'}</td>
              <td>${e.user_id || '—'}</td>
              <td><${Badge} value=${e.severity} /></td>
              <td>${e.trace_id ? html`<span onClick=${(ev) => ev.stopPropagation()}><${Link} href=${traceHref(project.id, e)} data-testid="occurrence-trace">trace</${Link}></span>` : html`<span class="muted">—</span>`}</td>
            </tr>`,
          )}
        </tbody>
      </table></div>
      ${cursor && html`<button class="btn" data-testid="more-occurrences" disabled=${more.busy} onClick=${loadMore}>Older occurrences</button>`}
      ${more.error && html`<${ErrorBox} error=${more.error} />`}
    </section>
  `;
}
