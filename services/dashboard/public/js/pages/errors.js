import { html } from 'htm/preact';
import { api, projectApi } from '../lib/api.js';
import { Link, useLocation } from '../lib/router.js';
import { boundsOf, rangeOf } from '../lib/time-range.js';
import { useData } from '../lib/use-data.js';
import { errorTitle, formatNumber, timeAgo, formatTime } from '../lib/format.js';
import { projectHref } from '../lib/view-state.js';
import { Badge } from '../components/badges.js';
import { Sparkline } from '../components/sparkline.js';
import { TimeRangePicker } from '../components/time-range-picker.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';
import { TriageActions, stateLabel } from '../components/triage-panel.js';
import { useState } from 'preact/hooks';
import { FilterChips } from '../components/filter-chips.js';

const FILTERS = [
  ['unresolved', 'Unresolved'],
  ['new', 'New'],
  ['regressed', 'Regressed'],
  ['resolved', 'Resolved'],
  ['ignored', 'Ignored'],
  ['all', 'All'],
];

// Error groups seen in the range (of the service and environment chosen), most recently
// seen first, each with its activity and triage state; filtered by state, acted on one or
// many at a time (docs/alerts.md).

/** The type in bold, then the message, without the type twice when the message starts with it. */
export function ErrorTitle({ type, message }) {
  const t = errorTitle(type, message);
  return html`<strong>${t.type}</strong>${t.message ? `: ${t.message}` : ''}`;
}

async function loadGroups(projectId, query, status) {
  const bounds = boundsOf(rangeOf(query));
  const filters = { service: query.get('service') || undefined, environment: query.get('environment') || undefined };
  const { groups } = await api(projectApi(projectId, '/error-groups/triage'), { query: { ...bounds, ...filters, limit: 200, status } });
  let activity = {};
  if (groups.length > 0) {
    const r = await api(projectApi(projectId, '/error-activity'), {
      query: { ...bounds, buckets: 24, fingerprints: groups.slice(0, 100).map((g) => g.fingerprint) },
    }).catch(() => ({ series: {} }));
    activity = r.series;
  }
  return { groups, activity };
}

export function ErrorsPage({ project }) {
  const { query } = useLocation();
  const status = query.get('status') || 'unresolved';
  const key = ['range', 'from', 'to', 'service', 'environment'].map((k) => query.get(k)).join('|');
  const { data, error, loading, reload } = useData(() => loadGroups(project.id, query, status), `${project.id}|${key}|${status}`);
  const [picked, setPicked] = useState(new Set());
  const toggle = (fp) => {
    const next = new Set(picked);
    if (next.has(fp)) next.delete(fp);
    else next.add(fp);
    setPicked(next);
  };
  // The state tabs keep the range and filters of the page.
  const here = (s) => {
    const q = new URLSearchParams(query);
    q.set('status', s);
    return `/projects/${encodeURIComponent(project.id)}/errors?${q}`;
  };
  return html`
    <div class="page-head">
      <h1>Errors</h1>
      <div class="head-actions"><${TimeRangePicker} /></div>
    </div>
    <${FilterChips} tab="errors" />
    <div class="tabs small" data-testid="status-filter">
      ${FILTERS.map(([s, label]) => html`<${Link} href=${here(s)} class=${s === status ? 'tab active' : 'tab'}>${label}</${Link}>`)}
    </div>
    <${TriageActions} projectId=${project.id} fingerprints=${[...picked]} onDone=${() => (setPicked(new Set()), reload())} />
    ${error && html`<${ErrorBox} error=${error} />`}
    ${loading && !data && html`<${Loading} />`}
    ${
      data &&
      (data.groups.length === 0
        ? html`<${Empty}>No errors in this time range.</${Empty}>`
        : html`<div class="table-wrap"><table class="table" data-testid="error-groups">
          <thead>
            <tr><th></th><th>Error</th><th>State</th><th>Activity</th><th class="num">Events</th><th>First seen</th><th>Last seen</th><th>Severity</th><th>Service</th><th>Release</th></tr>
          </thead>
          <tbody>
            ${data.groups.map(
              (g) => html`<tr key=${g.fingerprint} data-testid="error-group-row">
                <td><input type="checkbox" aria-label=${`Select ${g.latest.error_message}`} checked=${picked.has(g.fingerprint)} onChange=${() => toggle(g.fingerprint)} /></td>
                <td class="message">
                  <${Link} href=${projectHref(project.id, `errors/${g.fingerprint}`)} class="error-title">
                    <${ErrorTitle} type=${g.latest.error_type} message=${g.latest.error_message} />
                  </${Link}>
                </td>
                <td class="nowrap" data-testid="group-state">${stateLabel(g.state)}</td>
                <td><${Sparkline} values=${data.activity[g.fingerprint]} /></td>
                <td class="num">${formatNumber(g.count)}</td>
                <td class="nowrap" title=${formatTime(g.first_seen, { zone: true })}>${timeAgo(g.first_seen)}</td>
                <td class="nowrap" title=${formatTime(g.last_seen, { zone: true })}>${timeAgo(g.last_seen)}</td>
                <td><${Badge} value=${g.max_severity} /></td>
                <td>${g.latest.service}</td>
                <td>${g.latest.release || '—'}</td>
              </tr>`,
            )}
          </tbody>
        </table></div>`)
    }
  `;
}
