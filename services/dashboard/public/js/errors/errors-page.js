import { html } from 'htm/preact';
import { api, projectApi } from '../lib/api.js';
import { Link, setQuery, useLocation } from '../lib/router.js';
import { boundsOf, rangeOf } from '../lib/time-range.js';
import { useFittedRange } from '../lib/fitted-range.js';
import { useData } from '../lib/use-data.js';
import { errorTitle, formatNumber, timeAgo, formatTime } from '../lib/format.js';
import { projectHref } from '../lib/view-state.js';
import { Badge } from '../components/badges.js';
import { Sparkline } from '../components/sparkline.js';
import { TimeRangePicker } from '../components/time-range-picker.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';
import { TriageActions, stateLabel } from './triage-panel.js';
import { useEffect, useState } from 'preact/hooks';
import { FilterChips } from '../components/filter-chips.js';

const FILTERS = [
  ['unresolved', 'Unresolved'],
  ['new', 'New'],
  ['regressed', 'Regressed'],
  ['resolved', 'Resolved'],
  ['ignored', 'Ignored'],
  ['all', 'All'],
];

// Error groups with an occurrence in the range (of the service and environment chosen,
// matching the search in the logs' syntax), sorted by last or first seen, events or users in
// the range; each with its activity, users, releases and triage state; filtered by state,
// acted on one or many at a time, merged by hand (docs/dashboard.md, docs/alerts.md).

const SORTS = [
  ['last_seen', 'Last seen'],
  ['first_seen', 'First seen'],
  ['events', 'Events'],
  ['users', 'Users'],
];

/** The releases a group was seen in, as triage recorded them: "first → last", or the one. */
function releaseSpan(state) {
  const first = state?.first_release || '';
  const last = state?.last_release || '';
  if (!first && !last) return '—';
  return first && last && first !== last ? `${first} → ${last}` : first || last;
}

/** The type in bold, then the message, without the type twice when the message starts with it. */
export function ErrorTitle({ type, message }) {
  const t = errorTitle(type, message);
  return html`<strong>${t.type}</strong>${t.message ? `: ${t.message}` : ''}`;
}

/** The page's groups in some bounds, as its URL filters them. */
async function groupsIn(projectId, query, status, bounds, limit = 200) {
  const filters = {
    service: query.get('service') || undefined,
    environment: query.get('environment') || undefined,
    q: query.get('q') || undefined,
    sort: query.get('sort') || undefined,
    assigned: query.get('assigned') === 'me' ? 'me' : undefined,
  };
  return (await api(projectApi(projectId, '/error-groups/triage'), { query: { ...bounds, ...filters, limit, status } })).groups;
}

async function loadGroups(projectId, query, status) {
  const bounds = boundsOf(rangeOf(query));
  const groups = await groupsIn(projectId, query, status, bounds);
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
  const key = ['range', 'from', 'to', 'service', 'environment', 'q', 'sort', 'assigned'].map((k) => query.get(k)).join('|');
  const { data, error, loading, reload } = useData(() => loadGroups(project.id, query, status), `${project.id}|${key}|${status}`);
  const widening = useFittedRange(query, project.id, data?.groups.length === 0, async (b) => (await groupsIn(project.id, query, status, b, 1)).length > 0);
  const rangeKey = ['range', 'from', 'to'].map((k) => query.get(k)).join('|');
  const services = useData(() => api(projectApi(project.id, '/error-services'), { query: boundsOf(rangeOf(query)) }), `${project.id}|services|${rangeKey}`);
  const [draft, setDraft] = useState(query.get('q') || '');
  useEffect(() => setDraft(query.get('q') || ''), [query.get('q')]);
  const [picked, setPicked] = useState(new Set());
  const [mergeError, setMergeError] = useState('');
  // Merging by hand: every picked group into the one with the most events.
  const merge = async () => {
    const chosen = (data?.groups ?? []).filter((g) => picked.has(g.fingerprint)).sort((a, b) => b.count - a.count);
    if (
      chosen.length < 2 ||
      !window.confirm(`Merge ${chosen.length} groups into "${chosen[0].latest.error_message.slice(0, 80)}"? Their events and history become one group.`)
    )
      return;
    setMergeError('');
    try {
      for (const g of chosen.slice(1))
        await api(projectApi(project.id, `/error-groups/${g.fingerprint}/merge`), { method: 'POST', body: { into: chosen[0].fingerprint } });
    } catch (e) {
      setMergeError(e instanceof Error ? e.message : String(e));
    }
    setPicked(new Set());
    reload();
  };
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
    <form class="filters" data-testid="error-filters" onSubmit=${(e) => (e.preventDefault(), setQuery({ q: draft.trim() || null }, { replace: false }))}>
      <label class="filter wide">Search
        <input name="q" data-search value=${draft} onInput=${(e) => setDraft(e.currentTarget.value)} placeholder='timeout service:checkout user:u_42 -release:v1' />
      </label>
      <label class="filter">Service
        <select name="service" value=${query.get('service') || ''} onChange=${(e) => setQuery({ service: e.currentTarget.value || null }, { replace: false })}>
          <option value="">any</option>
          ${[...new Set([...(services.data?.services ?? []), ...(query.get('service') ? [query.get('service')] : [])])].map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </label>
      <label class="filter narrow">Sort by
        <select name="sort" value=${query.get('sort') || 'last_seen'} onChange=${(e) => setQuery({ sort: e.currentTarget.value === 'last_seen' ? null : e.currentTarget.value }, { replace: false })}>
          ${SORTS.map(([v, label]) => html`<option value=${v}>${label}</option>`)}
        </select>
      </label>
      <label class="filter check">
        <input type="checkbox" data-testid="assigned-to-me" checked=${query.get('assigned') === 'me'} onChange=${(e) => setQuery({ assigned: e.currentTarget.checked ? 'me' : null }, { replace: false })} />
        Assigned to me
      </label>
      <button class="btn btn-primary" type="submit">Search</button>
    </form>
    <div class="triage-bar">
      <${TriageActions} projectId=${project.id} fingerprints=${[...picked]} onDone=${() => (setPicked(new Set()), reload())} />
      <button class="btn" data-testid="merge-groups" disabled=${picked.size < 2} onClick=${merge}>Merge</button>
      ${mergeError && html`<span class="error-text">${mergeError}</span>`}
    </div>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${((loading && !data) || widening) && html`<${Loading} />`}
    ${
      data &&
      !widening &&
      (data.groups.length === 0
        ? html`<${Empty}>${query.get('q') ? 'No errors match this search in this time range.' : 'No errors in this time range.'}</${Empty}>`
        : html`<div class="table-wrap"><table class="table" data-testid="error-groups">
          <thead>
            <tr><th></th><th>Error</th><th>State</th><th>Activity</th><th class="num" title="In the range">Events</th><th class="num" title="Distinct users in the range">Users</th><th>First seen</th><th>Last seen</th><th>Severity</th><th>Service</th><th>Releases</th><th>Assignee</th></tr>
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
                <td class="num" data-testid="group-events" title=${`${formatNumber(g.count)} in all`}>${formatNumber(g.range_count)}</td>
                <td class="num" data-testid="group-users">${formatNumber(g.users)}</td>
                <td class="nowrap" title=${formatTime(g.first_seen, { zone: true })}>${timeAgo(g.first_seen)}</td>
                <td class="nowrap" title=${formatTime(g.last_seen, { zone: true })}>${timeAgo(g.last_seen)}</td>
                <td><${Badge} value=${g.max_severity} /></td>
                <td>${g.latest.service}</td>
                <td class="nowrap" data-testid="group-releases">${releaseSpan(g.state)}</td>
                <td class="nowrap" data-testid="group-assignee">${g.assignee?.name ?? '—'}</td>
              </tr>`,
            )}
          </tbody>
        </table></div>`)
    }
  `;
}
