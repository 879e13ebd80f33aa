import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { ApiError, api, projectApi } from '../lib/api.js';
import { Link } from '../lib/router.js';
import { useData } from '../lib/use-data.js';
import { errorTitle, formatDuration, formatNumber, formatTime, zoneLabel } from '../lib/format.js';
import { aroundParams, projectHref } from '../lib/view-state.js';
import { fieldTerm } from '../lib/search-text.js';
import { Badge } from '../components/badges.js';
import { JsonView } from '../components/json-view.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';
import { Waterfall } from './waterfall.js';

// One trace: its waterfall, the selected span, the errors reported with its trace id and
// the logs that carry it, with links to the logs explorer (by trace id, and everything
// logged around the trace's time).

const SLACK_MS = 3600_000;

async function loadTrace(projectId, traceId) {
  const t = await api(projectApi(projectId, `/traces/${encodeURIComponent(traceId)}`));
  const start = Math.min(...t.spans.map((s) => Date.parse(s.start_time)));
  const end = Math.max(...t.spans.map((s) => Date.parse(s.start_time) + s.duration_ms));
  // Within an hour either side of its spans: clocks differ between services.
  const window = { from: start - SLACK_MS, to: end + SLACK_MS };
  const [logs, errors] = await Promise.all([
    api(projectApi(projectId, '/logs'), { query: { trace_id: traceId, ...window, limit: 500 } }).catch((err) => ({ logs: [], error: err })),
    api(projectApi(projectId, '/errors'), { query: { trace_id: traceId, ...window, limit: 100 } }).catch((err) => ({ errors: [], error: err })),
  ]);
  return { spans: t.spans, start, end, logs: logs.logs.slice().reverse(), logsError: logs.error, errors: errors.errors, errorsError: errors.error };
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
  const logsOfTrace = projectHref(project.id, 'logs', { q: fieldTerm('trace_id', traceId), ...aroundParams(data.start, data.end, SLACK_MS) });
  const logsAround = projectHref(project.id, 'logs', { q: null, ...aroundParams(data.start, data.end) });
  return html`
    <div class="page-head">
      <div class="min0">
        <${Link} href=${projectHref(project.id, 'traces')} class="back">← Traces</${Link}>
        <h1 data-testid="trace-heading" class="break">${root.operation}</h1>
        <div class="muted mono small break">trace ${traceId}</div>
      </div>
      <div class="head-actions">
        <${Link} class="btn" href=${logsOfTrace} data-testid="trace-logs-link">Logs of this trace</${Link}>
        <${Link} class="btn" href=${logsAround} data-testid="trace-around-link">All logs ±5 min</${Link}>
      </div>
    </div>
    <div class="stats">
      <div class="stat"><span class="stat-label">Duration</span><span class="stat-value">${formatDuration(data.end - data.start)}</span></div>
      <div class="stat"><span class="stat-label">Spans</span><span class="stat-value">${formatNumber(data.spans.length)}</span></div>
      <div class="stat"><span class="stat-label">Started</span><span class="stat-value small">${formatTime(data.start, { zone: true })}</span></div>
      <div class="stat"><span class="stat-label">Status</span><span class="stat-value"><${Badge} value=${data.spans.some((s) => s.status === 'error') ? 'error' : 'ok'} /></span></div>
      <div class="stat"><span class="stat-label">Errors reported</span><span class="stat-value" data-testid="trace-error-count">${formatNumber(data.errors.length)}</span></div>
    </div>
    <section class="card">
      <h2>Waterfall</h2>
      <${Waterfall} spans=${data.spans} selected=${span.span_id} onSelect=${setSelected} />
    </section>
    <section class="card" data-testid="span-detail">
      <h2 class="break">Span: ${span.operation}</h2>
      <dl class="fields">
        <dt>Span id</dt><dd class="mono">${span.span_id}</dd>
        <dt>Parent</dt><dd class="mono">${span.parent_span_id || '— (root)'}</dd>
        <dt>Start</dt><dd>${formatTime(span.start_time, { zone: true })}</dd>
        <dt>Duration</dt><dd>${formatDuration(span.duration_ms)}</dd>
        <dt>Status</dt><dd><${Badge} value=${span.status} /></dd>
        <dt>Service</dt><dd>${span.service}</dd>
        <dt>Environment</dt><dd>${span.environment}</dd>
        <dt>Release</dt><dd>${span.release || '—'}</dd>
      </dl>
      <h3>Metadata</h3>
      <${JsonView} value=${span.metadata} />
    </section>
    <section class="card" id="errors" data-testid="trace-errors">
      <h2>Errors in this trace</h2>
      ${data.errorsError && html`<${ErrorBox} error=${data.errorsError} />`}
      ${
        data.errors.length === 0
          ? html`<span class="muted">No error was reported with this trace id.</span>`
          : html`<div class="table-wrap"><table class="table compact">
            <thead><tr><th>Time <span class="muted small">(${zoneLabel()})</span></th><th>Error</th><th>Service</th><th>Severity</th></tr></thead>
            <tbody>
              ${data.errors.map((e) => {
                const t = errorTitle(e.error_type, e.error_message);
                return html`<tr key=${e.event_id}>
                  <td class="nowrap mono">${formatTime(e.timestamp)}</td>
                  <td class="message"><${Link} href=${projectHref(project.id, `errors/${e.fingerprint}`)} data-testid="trace-error-link"><strong>${t.type}</strong>${t.message && `: ${t.message}`}</${Link}></td>
                  <td>${e.service}</td>
                  <td><${Badge} value=${e.severity} /></td>
                </tr>`;
              })}
            </tbody>
          </table></div>`
      }
    </section>
    <section class="card">
      <div class="row spread"><h2>Logs in this trace</h2><${Link} href=${logsOfTrace} class="small">Open in the logs explorer →</${Link}></div>
      ${data.logsError && html`<${ErrorBox} error=${data.logsError} />`}
      ${
        data.logs.length === 0
          ? html`<span class="muted">No logs carry this trace id.</span>`
          : html`<div class="table-wrap"><table class="table compact" data-testid="trace-logs">
            <thead><tr><th>Time <span class="muted small">(${zoneLabel()})</span></th><th>Level</th><th>Service</th><th>Span</th><th>Message</th></tr></thead>
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
          </table></div>`
      }
    </section>
  `;
}
