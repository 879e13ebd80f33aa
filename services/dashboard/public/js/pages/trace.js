import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { ApiError, api, projectApi } from '../lib/api.js';
import { Link } from '../lib/router.js';
import { useData } from '../lib/use-data.js';
import { formatDuration, formatTime } from '../lib/format.js';
import { Badge } from '../components/badges.js';
import { JsonView } from '../components/json-view.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';
import { Waterfall } from './waterfall.js';

async function loadTrace(projectId, traceId) {
  const t = await api(projectApi(projectId, `/traces/${encodeURIComponent(traceId)}`));
  const starts = t.spans.map((s) => Date.parse(s.start_time));
  const ends = t.spans.map((s) => Date.parse(s.start_time) + s.duration_ms);
  // The trace's logs: same trace id, within an hour either side of its spans.
  const logs = await api(projectApi(projectId, '/logs'), {
    query: { trace_id: traceId, from: Math.min(...starts) - 3600_000, to: Math.max(...ends) + 3600_000, limit: 500 },
  }).catch((err) => ({ logs: [], error: err }));
  return { spans: t.spans, logs: logs.logs.slice().reverse(), logsError: logs.error };
}

export function TracePage({ project, params }) {
  const { traceId } = params;
  const { data, error } = useData(() => loadTrace(project.id, traceId), `${project.id}|${traceId}`);
  const [selected, setSelected] = useState(/** @type {string | null} */ (null));
  if (error instanceof ApiError && error.status === 404) return html`<${Empty}>No spans with trace id “${traceId}” in this project (yet).</${Empty}>`;
  if (error) return html`<${ErrorBox} error=${error} />`;
  if (!data) return html`<${Loading} />`;
  const root = data.spans.find((s) => !s.parent_span_id) || data.spans[0];
  const span = data.spans.find((s) => s.span_id === (selected || root.span_id)) || root;
  const start = Math.min(...data.spans.map((s) => Date.parse(s.start_time)));
  const end = Math.max(...data.spans.map((s) => Date.parse(s.start_time) + s.duration_ms));
  return html`
    <div class="page-head">
      <div>
        <${Link} href=${`/projects/${encodeURIComponent(project.id)}/traces`} class="back">← Traces</${Link}>
        <h1 data-testid="trace-heading">${root.operation}</h1>
        <div class="muted mono small">trace ${traceId}</div>
      </div>
    </div>
    <div class="stats">
      <div class="stat"><span class="stat-label">Duration</span><span class="stat-value">${formatDuration(end - start)}</span></div>
      <div class="stat"><span class="stat-label">Spans</span><span class="stat-value">${data.spans.length}</span></div>
      <div class="stat"><span class="stat-label">Started</span><span class="stat-value small">${formatTime(new Date(start).toISOString())}</span></div>
      <div class="stat"><span class="stat-label">Status</span><span class="stat-value"><${Badge} value=${data.spans.some((s) => s.status === 'error') ? 'error' : 'ok'} /></span></div>
    </div>
    <section class="card">
      <h2>Waterfall</h2>
      <${Waterfall} spans=${data.spans} selected=${span.span_id} onSelect=${setSelected} />
    </section>
    <section class="card" data-testid="span-detail">
      <h2>Span: ${span.operation}</h2>
      <dl class="fields">
        <dt>Span id</dt><dd class="mono">${span.span_id}</dd>
        <dt>Parent</dt><dd class="mono">${span.parent_span_id || '— (root)'}</dd>
        <dt>Start</dt><dd>${formatTime(span.start_time)}</dd>
        <dt>Duration</dt><dd>${formatDuration(span.duration_ms)}</dd>
        <dt>Status</dt><dd><${Badge} value=${span.status} /></dd>
        <dt>Service</dt><dd>${span.service}</dd>
        <dt>Environment</dt><dd>${span.environment}</dd>
        <dt>Release</dt><dd>${span.release || '—'}</dd>
      </dl>
      <h3>Metadata</h3>
      <${JsonView} value=${span.metadata} />
    </section>
    <section class="card">
      <h2>Logs in this trace</h2>
      ${data.logsError && html`<${ErrorBox} error=${data.logsError} />`}
      ${
        data.logs.length === 0
          ? html`<span class="muted">No logs carry this trace id.</span>`
          : html`<table class="table compact" data-testid="trace-logs">
            <thead><tr><th>Time</th><th>Level</th><th>Service</th><th>Span</th><th>Message</th></tr></thead>
            <tbody>
              ${data.logs.map(
                (l) => html`<tr key=${l.event_id}>
                  <td class="nowrap mono">${formatTime(l.timestamp)}</td>
                  <td><${Badge} value=${l.level} /></td>
                  <td>${l.service}</td>
                  <td class="mono small">${l.span_id}</td>
                  <td class="message">${l.message}</td>
                </tr>`,
              )}
            </tbody>
          </table>`
      }
    </section>
  `;
}
