import { html } from 'htm/preact';
import { useMemo } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { setQuery, useLocation } from '../lib/router.js';
import { boundsOf, rangeOf } from '../lib/time-range.js';
import { useData } from '../lib/use-data.js';
import { formatCost, formatNumber } from '../lib/format.js';
import { CallList, LatencyChart, MetadataBreakdown } from './llm-explore.js';
import { TimeChart } from '../components/time-chart.js';
import { TimeRangePicker } from '../components/time-range-picker.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';
import { FilterChips } from '../components/filter-chips.js';

/** Turns (bucket, model, value) points into uPlot columns: one series per model. */
function columns(r, field) {
  const models = [...new Set(r.series.map((p) => p.model))].sort();
  const xs = Array.from({ length: r.buckets }, (_, i) => (r.from + i * r.step_ms) / 1000);
  const ys = models.map(() => new Array(r.buckets).fill(0));
  for (const p of r.series) if (p.bucket >= 0 && p.bucket < r.buckets) ys[models.indexOf(p.model)][p.bucket] += p[field];
  return { data: [xs, ...ys], series: models.map((m) => ({ label: m })) };
}

export function LlmPage({ project }) {
  const { query } = useLocation();
  const rangeKey = ['range', 'from', 'to', 'service'].map((k) => query.get(k)).join('|');
  // Bounds fixed while the range is: every part of the page reads the same span of time.
  const bounds = useMemo(() => boundsOf(rangeOf(query)), [rangeKey]);
  const service = query.get('service') || undefined;
  const filters = { service, model: query.get('model') || undefined, metadata: query.get('metadata') || undefined };
  const boundsKey = `${project.id}|${rangeKey}|${filters.model}|${filters.metadata}`;
  const { data, error, loading } = useData(
    () => api(projectApi(project.id, '/llm-breakdown'), { query: { ...bounds, service, buckets: 48 } }),
    `${project.id}|${rangeKey}`,
  );
  // The cost chart shows cost as sent; when nothing in the range was sent with a cost (OTLP
  // never is), it shows the estimate instead, and its title says so.
  const sentCost = Boolean(data?.series.some((p) => p.cost_usd !== 0));
  const cost = useMemo(
    () =>
      data &&
      columns({ ...data, series: data.series.map((p) => ({ ...p, estimated_cost_usd: p.estimated_cost_usd ?? 0 })) }, sentCost ? 'cost_usd' : 'estimated_cost_usd'),
    [data, sentCost],
  );
  const tokens = useMemo(() => data && columns(data, 'tokens'), [data]);
  const totals = data?.models.reduce(
    (t, m) => ({
      calls: t.calls + m.calls,
      cost: t.cost + m.cost_usd,
      estimated: t.estimated + (m.estimated_cost_usd ?? 0),
      tokens: t.tokens + m.input_tokens + m.output_tokens,
    }),
    { calls: 0, cost: 0, estimated: 0, tokens: 0 },
  );
  // Models the price table does not know have no estimate (shown as "—").
  const unpriced = data ? data.models.filter((m) => m.estimated_cost_usd == null).length : 0;
  return html`
    <div class="page-head">
      <h1>LLM usage</h1>
      <div class="head-actions"><${TimeRangePicker} /></div>
    </div>
    <${FilterChips} tab="llm" />
    ${error && html`<${ErrorBox} error=${error} />`}
    ${loading && !data && html`<${Loading} />`}
    ${data && data.models.length === 0 && html`<${Empty}>No LLM usage recorded in this time range.</${Empty}>`}
    ${
      data &&
      data.models.length > 0 &&
      html`
      <div class="stats">
        <div class="stat"><span class="stat-label">Calls</span><span class="stat-value">${formatNumber(totals.calls)}</span></div>
        <div class="stat"><span class="stat-label">Tokens</span><span class="stat-value">${formatNumber(totals.tokens)}</span></div>
        <div class="stat"><span class="stat-label">Cost (as sent)</span><span class="stat-value" data-testid="llm-total-cost">${formatCost(totals.cost)}</span></div>
        <div class="stat" title=${unpriced ? `${unpriced} model(s) not in the price table` : 'From the price table'}>
          <span class="stat-label">Estimated cost${unpriced ? ' *' : ''}</span><span class="stat-value" data-testid="llm-total-estimated">${formatCost(totals.estimated)}</span>
        </div>
      </div>
      <div class="grid-2">
        <section class="card">
          <h2 data-testid="llm-cost-chart-title">${sentCost ? 'Cost by model (USD)' : 'Estimated cost by model (USD)'}</h2>
          <${TimeChart} data=${cost.data} series=${cost.series} stacked=${true} testId="llm-cost-chart" />
        </section>
        <section class="card">
          <h2>Tokens by model</h2>
          <${TimeChart} data=${tokens.data} series=${tokens.series} stacked=${true} testId="llm-tokens-chart" />
        </section>
      </div>
      <section class="card">
        <h2>By model and provider</h2>
        <div class="table-wrap"><table class="table" data-testid="llm-table">
          <thead>
            <tr><th>Model</th><th>Provider</th><th class="num">Calls</th><th class="num">Input tokens</th><th class="num">Output tokens</th><th class="num">Cost</th><th class="num">Est. cost</th><th class="num">Latency p50</th><th class="num">Latency p95</th></tr>
          </thead>
          <tbody>
            ${data.models.map(
              (m) => html`<tr key=${`${m.model}|${m.provider}`}>
                <td><button type="button" class="link-button" title="Show these calls" onClick=${() => setQuery({ model: m.model }, { replace: false })}>${m.model}</button></td>
                <td>${m.provider}</td>
                <td class="num">${formatNumber(m.calls)}</td>
                <td class="num">${formatNumber(m.input_tokens)}</td>
                <td class="num">${formatNumber(m.output_tokens)}</td>
                <td class="num">${formatCost(m.cost_usd)}</td>
                <td class="num" data-testid="llm-estimated">${m.estimated_cost_usd == null ? '—' : formatCost(m.estimated_cost_usd)}</td>
                <td class="num">${formatNumber(m.latency_p50_ms)} ms</td>
                <td class="num">${formatNumber(m.latency_p95_ms)} ms</td>
              </tr>`,
            )}
          </tbody>
        </table></div>
      </section>
      <div class="grid-2">
        <${LatencyChart} projectId=${project.id} bounds=${bounds} filters=${filters} boundsKey=${boundsKey} />
        <${MetadataBreakdown} projectId=${project.id} bounds=${bounds} filters=${filters} boundsKey=${boundsKey} by=${query.get('by') || ''} />
      </div>
      <${CallList} projectId=${project.id} bounds=${bounds} filters=${filters} boundsKey=${boundsKey} />
    `
    }
  `;
}
