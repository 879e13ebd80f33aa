import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { Link, setQuery, useLocation } from '../lib/router.js';
import { boundsOf } from '../lib/time-range.js';
import { useData } from '../lib/use-data.js';
import { formatDuration, formatTime } from '../lib/format.js';
import { Badge } from '../components/badges.js';
import { TimeRangePicker } from '../components/time-range-picker.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';

// Recent traces: their root spans, newest first, optionally of one operation.
export function TracesPage({ project }) {
  const { query } = useLocation();
  const range = query.get('range') || '';
  const operation = query.get('operation') || '';
  const [draft, setDraft] = useState(operation);
  const { data, error, loading } = useData(
    () => api(projectApi(project.id, '/traces'), { query: { ...boundsOf(range), operation, limit: 200 } }),
    `${project.id}|${range}|${operation}`,
  );
  return html`
    <div class="page-head">
      <h1>Traces</h1>
      <div class="head-actions"><${TimeRangePicker} value=${range} /></div>
    </div>
    <form class="filters" onSubmit=${(e) => (e.preventDefault(), setQuery({ operation: draft }))}>
      <label class="filter">Root operation (exact)
        <input name="operation" value=${draft} onInput=${(e) => setDraft(e.currentTarget.value)} placeholder="GET /api/orders" />
      </label>
      <button class="btn" type="submit">Apply</button>
    </form>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${loading && !data && html`<${Loading} />`}
    ${
      data &&
      (data.traces.length === 0
        ? html`<${Empty}>No traces in this time range.</${Empty}>`
        : html`<table class="table" data-testid="traces-table">
          <thead><tr><th>Started</th><th>Root operation</th><th class="num">Duration</th><th>Status</th><th>Service</th><th>Trace id</th></tr></thead>
          <tbody>
            ${data.traces.map(
              (t) => html`<tr key=${t.event_id}>
                <td class="nowrap mono">${formatTime(t.start_time)}</td>
                <td><${Link} href=${`/projects/${encodeURIComponent(project.id)}/traces/${encodeURIComponent(t.trace_id)}`}>${t.operation}</${Link}></td>
                <td class="num">${formatDuration(t.duration_ms)}</td>
                <td><${Badge} value=${t.status} /></td>
                <td>${t.service}</td>
                <td class="mono small">${t.trace_id}</td>
              </tr>`,
            )}
          </tbody>
        </table>`)
    }
  `;
}
