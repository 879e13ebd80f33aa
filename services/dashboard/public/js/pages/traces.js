import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { Link, setQuery, useLocation } from '../lib/router.js';
import { boundsOf, rangeOf } from '../lib/time-range.js';
import { useData } from '../lib/use-data.js';
import { formatDuration, formatNumber, formatTime, zoneLabel } from '../lib/format.js';
import { projectHref } from '../lib/view-state.js';
import { serviceColor } from '../lib/service-colors.js';
import { Badge } from '../components/badges.js';
import { TimeRangePicker } from '../components/time-range-picker.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';

// Trace search: traces (their root spans) started in the range, by part of the root
// operation, a service any span ran in, duration and status; newest first.

const FIELDS = ['operation', 'service', 'min_duration_ms', 'max_duration_ms', 'status'];

export function TracesPage({ project }) {
  const { query } = useLocation();
  const range = rangeOf(query);
  const filters = Object.fromEntries(FIELDS.map((k) => [k, query.get(k) || '']));
  const [draft, setDraft] = useState(filters);
  const key = `${project.id}|${FIELDS.map((k) => filters[k]).join('|')}|${query.get('range')}|${query.get('from')}|${query.get('to')}`;
  useEffect(() => setDraft(filters), [key]);
  const { data, error, loading } = useData(() => api(projectApi(project.id, '/traces'), { query: { ...boundsOf(range), ...filters, limit: 200 } }), key);
  const input = (/** @type {string} */ k) => (/** @type {any} */ e) => setDraft({ ...draft, [k]: e.currentTarget.value });
  return html`
    <div class="page-head">
      <h1>Traces</h1>
      <div class="head-actions"><${TimeRangePicker} /></div>
    </div>
    <form class="filters" data-testid="trace-filters" onSubmit=${(e) => (e.preventDefault(), setQuery(draft, { replace: false }))}>
      <label class="filter">Operation contains
        <input name="operation" data-search value=${draft.operation} onInput=${input('operation')} placeholder="checkout" />
      </label>
      <label class="filter">Service
        <input name="service" value=${draft.service} onInput=${input('service')} placeholder="any" />
      </label>
      <label class="filter narrow">Min ms
        <input name="min_duration_ms" type="number" min="0" inputmode="numeric" value=${draft.min_duration_ms} onInput=${input('min_duration_ms')} />
      </label>
      <label class="filter narrow">Max ms
        <input name="max_duration_ms" type="number" min="0" inputmode="numeric" value=${draft.max_duration_ms} onInput=${input('max_duration_ms')} />
      </label>
      <label class="filter narrow">Status
        <select name="status" value=${draft.status} onChange=${input('status')}>
          <option value="">any</option><option value="error">error</option><option value="ok">ok</option>
        </select>
      </label>
      <button class="btn btn-primary" type="submit">Search</button>
    </form>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${loading && !data && html`<${Loading} />`}
    ${
      data &&
      (data.traces.length === 0
        ? html`<${Empty}>No traces match in this time range.</${Empty}>`
        : html`<div class="table-wrap"><table class="table" data-testid="traces-table">
          <thead><tr><th>Started <span class="muted small">(${zoneLabel()})</span></th><th>Root operation</th><th>Services</th><th class="num">Spans</th><th class="num">Duration</th><th>Status</th></tr></thead>
          <tbody>
            ${data.traces.map(
              (t) => html`<tr key=${t.event_id} data-testid="trace-row">
                <td class="nowrap mono">${formatTime(t.start_time)}</td>
                <td class="message"><${Link} href=${projectHref(project.id, `traces/${encodeURIComponent(t.trace_id)}`)}>${t.operation}</${Link}>
                  <div class="mono small muted trace-id">${t.trace_id}</div></td>
                <td>${t.services.map((s) => html`<span class="service-tag"><span class="dot" style=${{ background: serviceColor(s) }}></span>${s}</span>`)}</td>
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
