import { html } from 'htm/preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { setQuery, useLocation } from '../lib/router.js';
import { boundsOf, rangeOf, rangeParams } from '../lib/time-range.js';
import { useFittedRange } from '../lib/fitted-range.js';
import { useData } from '../lib/use-data.js';
import { formatDecimal, formatNumber, formatTime } from '../lib/format.js';
import { colorsOf } from '../lib/service-colors.js';
import { projectHref } from '../lib/view-state.js';
import { Link } from '../lib/router.js';
import { TimeRangePicker } from '../components/time-range-picker.js';
import { TimeChart, PALETTE } from '../components/time-chart.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';

// The metrics explorer (docs/dashboard.md, "Metrics"): pick a metric, filter it in the search
// syntax, group it by attributes and chart one aggregation over the page's time range, as
// GET /metrics/series reads it (docs/api.md#metrics). An exemplar opens its trace. Everything
// chosen is in the URL, so a link shows the same chart.

/** The aggregations a metric's type has (the API refuses the others with a 400). */
const AGGREGATIONS = {
  gauge: ['sum', 'avg', 'min', 'max', 'count'],
  sum: ['rate', 'increase', 'sum', 'avg', 'min', 'max', 'count'],
  histogram: ['p50', 'p75', 'p90', 'p95', 'p99', 'rate', 'avg', 'sum', 'count', 'min', 'max'],
  exponential_histogram: ['p50', 'p75', 'p90', 'p95', 'p99', 'rate', 'avg', 'sum', 'count', 'min', 'max'],
  summary: ['p50', 'p90', 'p99', 'avg', 'sum', 'count'],
};

/** About 60 steps over the range, at least a minute each: an SDK exports every 60 s by default. @param {{ from: number, to: number }} b */
const stepOf = (b) => Math.max(60, Math.ceil((b.to - b.from) / 1000 / 60));

/** @param {number | null} v */
const valueText = (v) => (v === null ? '—' : Number.isInteger(v) ? formatNumber(v) : formatDecimal(v, Math.abs(v) < 1 ? 4 : 2));

export function MetricsPage({ project }) {
  const { query } = useLocation();
  const rangeKey = ['range', 'from', 'to'].map((k) => query.get(k)).join('|');
  const bounds = useMemo(() => boundsOf(rangeOf(query)), [rangeKey]);
  const namesIn = (/** @type {{ from: number, to: number }} */ b) => api(projectApi(project.id, '/metrics'), { query: b });
  const names = useData(() => namesIn(bounds), `${project.id}|${rangeKey}`);
  const widening = useFittedRange(query, project.id, names.data?.metrics.length === 0, async (b) => (await namesIn(b)).metrics.length > 0);

  const metrics = names.data?.metrics ?? [];
  const metricName = query.get('metric') || metrics[0]?.name || '';
  const meta = metrics.find((m) => m.name === metricName);
  const allowed = meta ? AGGREGATIONS[meta.type] : ['sum'];
  const aggregation = allowed.includes(query.get('agg') || '') ? /** @type {string} */ (query.get('agg')) : allowed[0];
  const groupBy = query.get('by') || '';
  const filter = query.get('filter') || '';
  const [draft, setDraft] = useState(filter);
  useEffect(() => setDraft(filter), [filter]);

  const keys = useData(
    () => (metricName ? api(projectApi(project.id, '/metrics/attributes'), { query: { ...bounds, metric: metricName } }) : Promise.resolve({ keys: [] })),
    `${project.id}|keys|${rangeKey}|${metricName}`,
  );
  const series = useData(
    () =>
      metricName
        ? api(projectApi(project.id, '/metrics/series'), {
            query: { ...bounds, metric: metricName, aggregation, step: stepOf(bounds), group_by: groupBy || undefined, filter: filter || undefined },
          })
        : Promise.resolve(null),
    `${project.id}|series|${rangeKey}|${metricName}|${aggregation}|${groupBy}|${filter}`,
  );
  const chart = useMemo(() => {
    const s = series.data;
    if (!s || s.series.length === 0) return null;
    const xs = s.series[0].points.map((p) => Date.parse(p.time) / 1000);
    const ys = s.series.map((line) => line.points.map((p) => p.value));
    const serviceColor = colorsOf(groupBy === 'service' ? s.series.map((line) => line.group.service) : []);
    const lines = s.series.map((line, i) => {
      const label = Object.values(line.group).join(' · ') || metricName;
      // A service keeps its colour on every page (service-colors.js).
      return { label, color: groupBy === 'service' ? serviceColor(line.group.service) : PALETTE[i % PALETTE.length] };
    });
    return { data: [xs, ...ys], lines };
  }, [series.data]);

  const groupKeys = ['service', 'environment', 'release', ...(keys.data?.keys ?? []).map((k) => k.key)];
  const unit = meta?.unit ? ` (${meta.unit}${aggregation === 'rate' ? '/s' : ''})` : aggregation === 'rate' ? ' (/s)' : '';
  const zoom = (/** @type {number} */ from, /** @type {number} */ to) => setQuery(rangeParams({ kind: 'absolute', from, to }), { replace: false });

  return html`
    <div class="page-head">
      <h1>Metrics</h1>
      <div class="head-actions"><${TimeRangePicker} /></div>
    </div>
    ${names.error && html`<${ErrorBox} error=${names.error} />`}
    ${((names.loading && !names.data) || widening) && html`<${Loading} />`}
    ${
      names.data &&
      metrics.length === 0 &&
      !widening &&
      html`<${Empty}><span data-testid="metrics-empty">No metrics in this time range. OpenTelemetry SDKs and the Collector send them to /v1/metrics (docs/otlp.md).</span></${Empty}>`
    }
    ${
      metrics.length > 0 &&
      html`
      <section class="card" data-testid="metrics-explorer">
        <div class="row spaced">
          <label class="inline-label">Metric
            <select data-testid="metric-name" value=${metricName} onChange=${(e) => setQuery({ metric: e.currentTarget.value, agg: null, by: null })}>
              ${metrics.map((m) => html`<option value=${m.name}>${m.name}</option>`)}
            </select>
          </label>
          <label class="inline-label">Aggregation
            <select data-testid="metric-aggregation" value=${aggregation} onChange=${(e) => setQuery({ agg: e.currentTarget.value })}>
              ${allowed.map((a) => html`<option value=${a}>${a}</option>`)}
            </select>
          </label>
          <label class="inline-label">Group by
            <select data-testid="metric-group" value=${groupBy} onChange=${(e) => setQuery({ by: e.currentTarget.value || null })}>
              <option value="">(none)</option>
              ${groupKeys.map((k) => html`<option value=${k}>${k}</option>`)}
            </select>
          </label>
        </div>
        <form class="search-bar" onSubmit=${(/** @type {Event} */ e) => (e.preventDefault(), setQuery({ filter: draft.trim() || null }, { replace: false }))}>
          <input type="search" data-testid="metric-filter" placeholder="Filter: route:/pay service:api -env:staging" value=${draft} onInput=${(e) => setDraft(e.currentTarget.value)} aria-label="Filter" />
          <button class="btn" type="submit">Apply</button>
        </form>
        ${meta && html`<p class="muted small" data-testid="metric-meta">${meta.type.replace('_', ' ')}${meta.unit ? `, ${meta.unit}` : ''}${meta.temporality !== 'unspecified' ? `, ${meta.temporality}` : ''}${meta.monotonic ? ', monotonic' : ''}${meta.description ? ` — ${meta.description}` : ''}</p>`}
        ${series.error && html`<${ErrorBox} error=${series.error} />`}
        ${series.loading && !series.data && html`<${Loading} />`}
        ${series.data?.truncated && html`<p class="warning" data-testid="metric-truncated">Partial: more points or groups than one chart holds. Narrow the range or the filter.</p>`}
        ${chart && html`<${TimeChart} data=${chart.data} series=${chart.lines} yLabel=${`${aggregation}${unit}`} testId="metric-chart" onZoom=${zoom} valueFormat=${valueText} spanGaps=${true} />`}
        ${series.data && series.data.series.length === 0 && html`<p class="muted" data-testid="metric-no-points">No points of ${metricName} match in this range.</p>`}
        ${
          series.data?.series.length > 0 &&
          html`<div class="table-wrap"><table class="table compact" data-testid="metric-latest">
            <thead><tr><th>${groupBy || 'Series'}</th><th class="num">Latest ${aggregation}</th></tr></thead>
            <tbody>${series.data.series.map((line) => {
              const last = [...line.points].reverse().find((p) => p.value !== null);
              return html`<tr data-testid="metric-line"><td class="mono">${Object.values(line.group).join(' · ') || metricName}</td><td class="num">${valueText(last ? last.value : null)}</td></tr>`;
            })}</tbody>
          </table></div>`
        }
      </section>
      ${
        series.data?.exemplars.length > 0 &&
        html`<section class="card" data-testid="metric-exemplars">
          <h2>Exemplars</h2>
          <div class="table-wrap"><table class="table compact">
            <thead><tr><th>Time</th><th class="num">Value</th><th>Trace</th></tr></thead>
            <tbody>${series.data.exemplars.slice(0, 20).map(
              (x) => html`<tr>
                <td class="nowrap">${formatTime(x.time)}</td>
                <td class="num">${valueText(x.value)}</td>
                <td class="mono">${x.trace_id ? html`<${Link} href=${projectHref(project.id, `traces/${x.trace_id}`)} data-testid="exemplar-trace">${x.trace_id.slice(0, 16)}…</${Link}>` : '—'}</td>
              </tr>`,
            )}</tbody>
          </table></div>
        </section>`
      }
    `
    }
  `;
}
