import { html } from 'htm/preact';
import { useMemo } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { Link, setQuery, useLocation } from '../lib/router.js';
import { boundsOf, rangeOf } from '../lib/time-range.js';
import { useFittedRange } from '../lib/fitted-range.js';
import { useData } from '../lib/use-data.js';
import { formatCost, formatNumber } from '../lib/format.js';
import { modelColorsOf } from '../lib/model-colors.js';
import { CallList, LatencyChart, MetadataBreakdown } from './llm-explore.js';
import { SessionList, SessionView } from './llm-sessions.js';
import { TraceGenerations } from './llm-trace.js';
import { TopSpenders } from './llm-top.js';
import { ScoresOverview } from './llm-scores.js';
import { TimeChart } from '../components/time-chart.js';
import { TimeRangePicker } from '../components/time-range-picker.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';
import { FilterChips } from '../components/filter-chips.js';
import { promptsPage } from '../prompts/prompt-paths.js';

/** Turns (bucket, model, value) points into uPlot columns: one series per model, in the model's own colour. */
export function columns(r, field) {
  const models = [...new Set(r.series.map((p) => p.model))].sort();
  const colorOf = modelColorsOf(models);
  const xs = Array.from({ length: r.buckets }, (_, i) => (r.from + i * r.step_ms) / 1000);
  const ys = models.map(() => new Array(r.buckets).fill(0));
  for (const p of r.series) if (p.bucket >= 0 && p.bucket < r.buckets) ys[models.indexOf(p.model)][p.bucket] += p[field];
  return { data: [xs, ...ys], series: models.map((m) => ({ label: m, color: colorOf(m) })) };
}

export function LlmPage({ project }) {
  const { query } = useLocation();
  const rangeKey = ['range', 'from', 'to', 'service'].map((k) => query.get(k)).join('|');
  // Bounds fixed while the range is: every part of the page reads the same span of time.
  const bounds = useMemo(() => boundsOf(rangeOf(query)), [rangeKey]);
  const service = query.get('service') || undefined;
  const filters = {
    service,
    model: query.get('model') || undefined,
    metadata: query.get('metadata') || undefined,
    q: query.get('q') || undefined,
    score: query.get('score') || undefined,
  };
  const session = query.get('session') || '';
  const trace = query.get('trace') || '';
  const sort = query.get('sort') || 'time';
  const order = query.get('order') === 'asc' ? 'asc' : 'desc';
  const sortScore = query.get('sort_score') || '';
  const boundsKey = `${project.id}|${rangeKey}|${filters.model}|${filters.metadata}|${filters.q}|${filters.score}`;
  const breakdownIn = (/** @type {{ from: number, to: number }} */ b) => api(projectApi(project.id, '/llm-breakdown'), { query: { ...b, service, buckets: 48 } });
  const { data, error, loading } = useData(() => breakdownIn(bounds), `${project.id}|${rangeKey}`);
  const widening = useFittedRange(query, project.id, data?.models.length === 0, async (b) => (await breakdownIn(b)).models.length > 0);
  // One cost everywhere: cost_usd is the effective cost (as sent, else the price table's
  // estimate); estimated_cost_usd is the part of it that is estimated (docs/otlp.md#llm-cost).
  const cost = useMemo(() => data && columns(data, 'cost_usd'), [data]);
  const tokens = useMemo(() => data && columns(data, 'tokens'), [data]);
  const totals = data?.models.reduce(
    (t, m) => ({
      calls: t.calls + m.calls,
      cost: t.cost + m.cost_usd,
      estimated: t.estimated + m.estimated_cost_usd,
      unpriced: t.unpriced + m.unpriced_calls,
      tokens: t.tokens + m.input_tokens + m.output_tokens,
    }),
    { calls: 0, cost: 0, estimated: 0, unpriced: 0, tokens: 0 },
  );
  const estimatedShare = totals && totals.cost > 0 ? Math.round((100 * totals.estimated) / totals.cost) : 0;
  return html`
    <div class="page-head">
      <h1>LLM usage</h1>
      <div class="head-actions"><${Link} class="btn" href=${promptsPage(project.id)} data-testid="llm-prompts-link">Prompts</${Link}><${Link} href="/llm-prices" class="btn" data-testid="llm-prices-link">Prices</${Link}><${TimeRangePicker} /></div>
    </div>
    <${FilterChips} tab="llm" />
    ${error && html`<${ErrorBox} error=${error} />`}
    ${((loading && !data) || widening) && html`<${Loading} />`}
    ${data && data.models.length === 0 && !widening && html`<${Empty}>No LLM usage recorded in this time range.</${Empty}>`}
    ${
      data &&
      data.models.length > 0 &&
      html`
      <div class="stats">
        <div class="stat"><span class="stat-label">Calls</span><span class="stat-value">${formatNumber(totals.calls)}</span></div>
        <div class="stat"><span class="stat-label">Tokens</span><span class="stat-value">${formatNumber(totals.tokens)}</span></div>
        <div class="stat" title="As sent where the client sent a cost, else estimated from the price table">
          <span class="stat-label">Cost</span><span class="stat-value" data-testid="llm-total-cost">${formatCost(totals.cost)}</span>
        </div>
        <div class="stat" title=${totals.unpriced ? `${formatNumber(totals.unpriced)} call(s) sent no cost, of models the price table does not price: counted as $0` : 'Estimated from the price table'}>
          <span class="stat-label">of which estimated${totals.unpriced ? ' *' : ''}</span>
          <span class="stat-value" data-testid="llm-total-estimated">${formatCost(totals.estimated)} <span class="muted small" data-testid="llm-estimated-share">(${estimatedShare}%)</span></span>
        </div>
      </div>
      ${session && html`<${SessionView} projectId=${project.id} bounds=${bounds} session=${session} />`}
      ${trace && html`<${TraceGenerations} projectId=${project.id} bounds=${bounds} traceId=${trace} />`}
      <${TopSpenders} projectId=${project.id} bounds=${bounds} filters=${filters} boundsKey=${boundsKey} />
      <div class="grid-2">
        <section class="card">
          <h2 data-testid="llm-cost-chart-title">Cost by model (USD)</h2>
          <${TimeChart} data=${cost.data} series=${cost.series} stacked=${true} valueFormat=${formatCost} testId="llm-cost-chart" />
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
            <tr><th>Model</th><th>Provider</th><th class="num">Calls</th><th class="num">Input tokens</th><th class="num">Output tokens</th><th class="num">Cost</th><th class="num">of which estimated</th><th class="num">Latency p50</th><th class="num">Latency p95</th></tr>
          </thead>
          <tbody>
            ${data.models.map(
              (m) => html`<tr key=${`${m.model}|${m.provider}`}>
                <td><button type="button" class="link-button" title="Show these calls" onClick=${() => setQuery({ model: m.model }, { replace: false })}>${m.model}</button></td>
                <td>${m.provider}</td>
                <td class="num">${formatNumber(m.calls)}</td>
                <td class="num">${formatNumber(m.input_tokens)}</td>
                <td class="num">${formatNumber(m.output_tokens)}</td>
                <td class="num" data-testid="llm-model-cost">${formatCost(m.cost_usd)}</td>
                <td class="num" data-testid="llm-estimated" title=${m.unpriced_calls ? `${m.unpriced_calls} call(s) not priced` : ''}>${m.unpriced_calls === m.calls ? '—' : formatCost(m.estimated_cost_usd)}</td>
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
      <${ScoresOverview} projectId=${project.id} bounds=${bounds} boundsKey=${boundsKey} />
      <${SessionList} projectId=${project.id} bounds=${bounds} filters=${filters} boundsKey=${boundsKey} />
      <${CallList} projectId=${project.id} bounds=${bounds} filters=${filters} boundsKey=${boundsKey} sort=${sort} sortScore=${sortScore} order=${order} />
    `
    }
  `;
}
