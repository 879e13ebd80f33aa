import { html } from 'htm/preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, api, projectApi } from '../lib/api.js';
import { Link } from '../lib/router.js';
import { useData } from '../lib/use-data.js';
import { errorTitle, formatDuration, formatNumber, formatTime, zoneLabel } from '../lib/format.js';
import { aroundParams, projectHref } from '../lib/view-state.js';
import { fieldTerm } from '../lib/search-text.js';
import { colorsOf } from '../lib/service-colors.js';
import { Badge } from '../components/badges.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';
import { criticalPath, descendantsOf, orderSpans, spanHas, Waterfall } from './waterfall.js';
import { SpanDetail } from './span-detail.js';

// One trace: its waterfall (fold a span's children, search within the trace, the critical
// path marked), the selected span beside it (under its row on a phone), the errors reported
// with its trace id and the logs that carry it, with links to the logs explorer (by trace
// id, and everything logged around the trace's time). j/k move through the spans shown.

const SLACK_MS = 3600_000;
const PHONE = '(max-width: 760px)';

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

/** Whether the window is phone-sized (the span's details then go under its row). */
function usePhone() {
  const [phone, setPhone] = useState(() => window.matchMedia(PHONE).matches);
  useEffect(() => {
    const m = window.matchMedia(PHONE);
    const on = () => setPhone(m.matches);
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, []);
  return phone;
}

/** @param {EventTarget | null} t */
const typing = (t) => t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

export function TracePage({ project, params }) {
  const { traceId } = params;
  const { data, error } = useData(() => loadTrace(project.id, traceId), `${project.id}|${traceId}`);
  // ?span= opens the trace at that span (an error's occurrence links to the span that failed).
  const [selected, setSelected] = useState(/** @type {string | null} */ (new URLSearchParams(location.search).get('span')));
  const [collapsed, setCollapsed] = useState(/** @type {Set<string>} */ (new Set()));
  const [find, setFind] = useState('');
  const [showCritical, setShowCritical] = useState(true);
  const phone = usePhone();
  const spans = data?.spans ?? [];
  const critical = useMemo(() => criticalPath(spans), [data]);
  const color = useMemo(
    () =>
      colorsOf(
        spans.map((s) => s.service),
        true,
      ),
    [data],
  );
  const matches = useMemo(() => (find.trim() ? new Set(spans.filter((s) => spanHas(s, find)).map((s) => s.span_id)) : null), [data, find]);
  const rows = useMemo(() => orderSpans(spans, collapsed), [data, collapsed]);
  const root = spans.find((s) => !s.parent_span_id) || spans[0];
  const current = selected || root?.span_id;

  // j/k (or the arrows) move through the spans shown; Esc leaves the search within the trace.
  // One listener reads the latest rows and selection from a ref (see the logs page).
  const keys = useRef({ rows, current });
  keys.current = { rows, current };
  useEffect(() => {
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      const { rows, current } = keys.current;
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target) || rows.length === 0) return;
      const i = rows.findIndex((r) => r.span.span_id === current);
      const step = e.key === 'j' || e.key === 'ArrowDown' ? 1 : e.key === 'k' || e.key === 'ArrowUp' ? -1 : 0;
      if (!step) return;
      e.preventDefault();
      const next = rows[Math.max(0, Math.min(rows.length - 1, i + step))].span.span_id;
      keys.current = { rows, current: next };
      setSelected(next);
      document.querySelector(`[data-span="${CSS.escape(next)}"]`)?.scrollIntoView({ block: 'nearest' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  if (error instanceof ApiError && error.status === 404) return html`<${Empty}>No spans with trace id “${traceId}” in this project (yet).</${Empty}>`;
  if (error) return html`<${ErrorBox} error=${error} />`;
  if (!data) return html`<${Loading} />`;
  const span = spans.find((s) => s.span_id === current) || root;
  const fold = (/** @type {string} */ id) => {
    const next = new Set(collapsed);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setCollapsed(next);
  };
  const foldable = spans.filter((s) => descendantsOf(spans, s.span_id).length > 0).map((s) => s.span_id);
  // A match hidden in a folded subtree is shown: its ancestors open.
  const findNext = (/** @type {Event} */ e) => {
    e.preventDefault();
    if (!matches || matches.size === 0) return;
    const order = orderSpans(spans)
      .map((r) => r.span.span_id)
      .filter((id) => matches.has(id));
    const next = order[(order.indexOf(current) + 1) % order.length];
    const open = new Set(collapsed);
    for (let p = spans.find((s) => s.span_id === next)?.parent_span_id; p; p = spans.find((s) => s.span_id === p)?.parent_span_id) open.delete(p);
    setCollapsed(open);
    setSelected(next);
  };
  const logsOfTrace = projectHref(project.id, 'logs', { q: fieldTerm('trace_id', traceId), ...aroundParams(data.start, data.end, SLACK_MS) });
  const logsAround = projectHref(project.id, 'logs', { q: null, ...aroundParams(data.start, data.end) });
  const detail = html`<${SpanDetail} span=${span} trace=${data} projectId=${project.id} color=${color} onSelect=${setSelected} />`;
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
      <div class="stat"><span class="stat-label">Spans</span><span class="stat-value">${formatNumber(spans.length)}</span></div>
      <div class="stat"><span class="stat-label">Services</span><span class="stat-value">${formatNumber(new Set(spans.map((s) => s.service)).size)}</span></div>
      <div class="stat"><span class="stat-label">Started</span><span class="stat-value small">${formatTime(data.start, { zone: true })}</span></div>
      <div class="stat"><span class="stat-label">Status</span><span class="stat-value"><${Badge} value=${spans.some((s) => s.status === 'error') ? 'error' : 'ok'} /></span></div>
      <div class="stat"><span class="stat-label">Errors reported</span><span class="stat-value" data-testid="trace-error-count">${formatNumber(data.errors.length)}</span></div>
    </div>
    <div class="trace-layout">
      <section class="card trace-main">
        <div class="row spread wf-tools">
          <h2>Waterfall</h2>
          <form class="wf-find" role="search" onSubmit=${findNext}>
            <input type="search" data-testid="trace-find" aria-label="Find spans in this trace" placeholder="Find in trace (Enter: next)" value=${find}
              onInput=${(e) => setFind(e.currentTarget.value)} onKeyDown=${(e) => e.key === 'Escape' && ((setFind(''), e.currentTarget.blur()))} />
            ${matches && html`<span class="small muted" data-testid="trace-find-count" role="status">${formatNumber(matches.size)} of ${formatNumber(spans.length)} spans</span>`}
          </form>
          <div class="wf-buttons">
            <label class="small"><input type="checkbox" data-testid="critical-toggle" checked=${showCritical} onChange=${(e) => setShowCritical(e.currentTarget.checked)} /> Critical path</label>
            <button type="button" class="btn btn-small" data-testid="collapse-all" onClick=${() => setCollapsed(new Set(foldable.filter((id) => id !== root.span_id)))}>Collapse all</button>
            <button type="button" class="btn btn-small" data-testid="expand-all" onClick=${() => setCollapsed(new Set())}>Expand all</button>
          </div>
        </div>
        <${Waterfall} spans=${spans} selected=${span.span_id} onSelect=${setSelected} color=${color} collapsed=${collapsed} onFold=${fold}
          matches=${matches} critical=${showCritical ? critical : null} detail=${phone ? detail : null} />
        <p class="muted small">j / k move through the spans; a span with children folds (▾ ▸).</p>
      </section>
      ${!phone && html`<aside class="trace-side">${detail}</aside>`}
    </div>
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
