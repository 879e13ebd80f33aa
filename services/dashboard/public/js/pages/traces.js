import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { Link, setQuery, useLocation } from '../lib/router.js';
import { boundsOf, rangeOf } from '../lib/time-range.js';
import { useFittedRange } from '../lib/fitted-range.js';
import { useData } from '../lib/use-data.js';
import { formatDuration, formatNumber, formatTime, zoneLabel } from '../lib/format.js';
import { projectHref } from '../lib/view-state.js';
import { colorsOf } from '../lib/service-colors.js';
import { Badge } from '../components/badges.js';
import { FilterChips } from '../components/filter-chips.js';
import { TimeRangePicker } from '../components/time-range-picker.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';
import { ServiceMap } from './service-map.js';

// Trace search (docs/dashboard.md, "Traces"): a search over the traces' spans (q, the logs'
// syntax), a service picked from those seen in the range, status, newest or slowest first;
// and the range's service map (view=map). Everything is in the URL.

/** Filters of this page only, as chips (service and environment are carried: view-state.js). */
const OWN = [
  ['status', 'status'],
  ['operation', 'operation'],
  ['min_duration_ms', 'min ms'],
  ['max_duration_ms', 'max ms'],
];
const PARAMS = ['q', 'service', 'environment', 'sort', ...OWN.map(([k]) => k)];
const EXAMPLES = [
  ['http.route:/checkout duration:>2s', 'a span of the route that took over 2 s'],
  ['checkout', 'the word in an operation or an attribute'],
  ['status:error service:payments', 'a failed span of payments'],
  ['tenant:acme', 'an attribute (metadata.tenant:acme)'],
  ['resource.host.name:web-1', 'an OTLP resource attribute'],
  ['duration:<=250ms -db.system:*', 'durations in us, ms, s, m, h; - leaves out'],
];

function TraceSearchForm({ query, services }) {
  const current = Object.fromEntries(PARAMS.map((k) => [k, query.get(k) || '']));
  const [draft, setDraft] = useState(current);
  useEffect(() => setDraft(current), [PARAMS.map((k) => current[k]).join('|')]);
  const input = (/** @type {string} */ k) => (/** @type {any} */ e) => setDraft({ ...draft, [k]: e.currentTarget.value });
  // A picker applies at once; typed fields on Search.
  const pick = (/** @type {string} */ k) => (/** @type {any} */ e) => setQuery({ ...draft, [k]: e.currentTarget.value || null }, { replace: false });
  const known = services ?? [];
  const serviceOptions = current.service && !known.some((s) => s.toLowerCase() === current.service.toLowerCase()) ? [current.service, ...known] : known;
  return html`
    <form class="filters trace-filters" data-testid="trace-filters" onSubmit=${(e) => (e.preventDefault(), setQuery({ ...draft, q: draft.q.trim() }, { replace: false }))}>
      <div class="search-bar trace-search">
        <input type="search" name="q" data-search data-testid="trace-search" aria-label="Search traces" value=${draft.q} onInput=${input('q')} autocomplete="off" spellcheck=${false}
          placeholder="Search spans: http.route:/checkout duration:>2s, status:error, tenant:acme   (press / )" />
        <button class="btn btn-primary" type="submit">Search</button>
      </div>
      <label class="filter">Service
        <select name="service" data-testid="service-picker" value=${serviceOptions.find((s) => s.toLowerCase() === current.service.toLowerCase()) ?? ''} onChange=${pick('service')}>
          <option value="">any</option>
          ${serviceOptions.map((s) => html`<option value=${s}>${s}</option>`)}
        </select>
      </label>
      <label class="filter narrow">Status
        <select name="status" value=${current.status} onChange=${pick('status')}>
          <option value="">any</option><option value="error">error</option><option value="ok">ok</option>
        </select>
      </label>
      <label class="filter">Sort
        <select name="sort" data-testid="trace-sort" value=${current.sort || 'time'} onChange=${pick('sort')}>
          <option value="time">newest first</option><option value="duration">slowest first</option>
        </select>
      </label>
      <label class="filter">Root operation contains
        <input name="operation" value=${draft.operation} onInput=${input('operation')} placeholder="checkout" />
      </label>
      <label class="filter narrow">Min ms
        <input name="min_duration_ms" type="number" min="0" inputmode="numeric" value=${draft.min_duration_ms} onInput=${input('min_duration_ms')} />
      </label>
      <label class="filter narrow">Max ms
        <input name="max_duration_ms" type="number" min="0" inputmode="numeric" value=${draft.max_duration_ms} onInput=${input('max_duration_ms')} />
      </label>
      <details class="syntax-help">
        <summary class="small">Search syntax (a trace matches when one of its spans matches)</summary>
        <div class="table-wrap"><table class="table compact small">
          <tbody>${EXAMPLES.map(([q, what]) => html`<tr><td><code>${q}</code></td><td>${what}</td></tr>`)}</tbody>
        </table></div>
      </details>
    </form>
  `;
}

function TraceList({ project, query, range }) {
  const filters = Object.fromEntries(PARAMS.map((k) => [k, query.get(k) || undefined]));
  const key = `${project.id}|${PARAMS.map((k) => filters[k]).join('|')}|${query.get('range')}|${query.get('from')}|${query.get('to')}`;
  const tracesIn = (/** @type {{ from: number, to: number }} */ b, limit = 200) => api(projectApi(project.id, '/traces'), { query: { ...b, ...filters, limit } });
  const { data, error, loading } = useData(() => tracesIn(boundsOf(range)), key);
  const widening = useFittedRange(query, project.id, data?.traces.length === 0, async (b) => (await tracesIn(b, 1)).traces.length > 0);
  const colors = colorsOf(data ? data.traces.flatMap((t) => t.services) : []);
  const slowest = filters.sort === 'duration';
  return html`
    ${error && html`<${ErrorBox} error=${error} />`}
    ${((loading && !data) || widening) && html`<${Loading} />`}
    ${
      data &&
      !widening &&
      (data.traces.length === 0
        ? html`<${Empty}>No traces match in this time range.</${Empty}>`
        : html`<p class="muted small" data-testid="traces-count">${formatNumber(data.traces.length)}${data.traces.length >= 200 ? ' (the first 200)' : ''} traces, by root start time, ${slowest ? 'slowest first' : 'newest first'}</p>
        <div class="table-wrap"><table class="table" data-testid="traces-table">
          <thead><tr><th>Started <span class="muted small">(${zoneLabel()})</span></th><th>Root operation</th><th>Services</th><th class="num">Spans</th><th class="num">Duration${slowest ? ' ↓' : ''}</th><th>Status</th></tr></thead>
          <tbody>
            ${data.traces.map(
              (t) => html`<tr key=${t.event_id} data-testid="trace-row">
                <td class="nowrap mono">${formatTime(t.start_time)}</td>
                <td class="message"><${Link} href=${projectHref(project.id, `traces/${encodeURIComponent(t.trace_id)}`)}>${t.operation}</${Link}>
                  <div class="mono small muted trace-id">${t.trace_id}</div></td>
                <td>${t.services.map((s) => html`<span class="service-tag"><span class="dot" style=${{ background: colors(s) }}></span>${s}</span>`)}</td>
                <td class="num">${formatNumber(t.span_count)}${t.error_count > 0 && html` <span class="error-text small">(${formatNumber(t.error_count)} failed)</span>`}</td>
                <td class="num">${formatDuration(t.duration_ms)}</td>
                <td><${Badge} value=${t.error_count > 0 ? 'error' : t.status} /></td>
              </tr>`,
            )}
          </tbody>
        </table></div>`)
    }
  `;
}

export function TracesPage({ project }) {
  const { query } = useLocation();
  const range = rangeOf(query);
  const rangeKey = `${project.id}|${query.get('range')}|${query.get('from')}|${query.get('to')}`;
  const services = useData(() => api(projectApi(project.id, '/spans/services'), { query: boundsOf(range) }), `services|${rangeKey}`);
  const map = query.get('view') === 'map';
  const view = (/** @type {string | null} */ v) => projectHref(project.id, 'traces', { ...Object.fromEntries([...query.entries()]), view: v });
  return html`
    <div class="page-head">
      <h1>Traces</h1>
      <div class="head-actions">
        <nav class="tabs small" aria-label="Traces view">
          <${Link} href=${view(null)} class=${map ? 'tab' : 'tab active'} aria-current=${map ? undefined : 'page'}>Traces</${Link}>
          <${Link} href=${view('map')} class=${map ? 'tab active' : 'tab'} aria-current=${map ? 'page' : undefined} data-testid="service-map-tab">Service map</${Link}>
        </nav>
        <${TimeRangePicker} />
      </div>
    </div>
    <${FilterChips} tab="traces" own=${map ? [] : OWN} />
    ${
      map
        ? html`<${ServiceMap} project=${project} range=${range} rangeKey=${rangeKey} />`
        : html`<${TraceSearchForm} query=${query} services=${services.data?.services} />
          <${TraceList} project=${project} query=${query} range=${range} />`
    }
  `;
}
