import { html } from 'htm/preact';
import { useMemo } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { Link, useLocation } from '../lib/router.js';
import { boundsOf, rangeOf } from '../lib/time-range.js';
import { projectHref } from '../lib/view-state.js';
import { useData } from '../lib/use-data.js';
import { formatCost, formatDecimal, formatNumber, formatTime } from '../lib/format.js';
import { TimeChart } from '../components/time-chart.js';
import { TimeRangePicker } from '../components/time-range-picker.js';
import { ErrorBox, Loading } from '../components/status.js';
import { CallList } from './llm-explore.js';
import { SessionList, SessionView } from './llm-sessions.js';
import { TraceGenerations } from './llm-trace.js';
import { columns } from './llm.js';

// One end user's LLM work (docs/dashboard.md, "LLM usage"): first and last seen, their calls,
// sessions, tokens, cost and score averages over the range, cost over time by model, their
// sessions and calls.
// Every part reads the LLM routes with metadata=enduser.id:<user>, so the figures agree.

export function LlmUserPage({ project, params }) {
  const { query } = useLocation();
  const user = params.user;
  const rangeKey = ['range', 'from', 'to'].map((k) => query.get(k)).join('|');
  const bounds = useMemo(() => boundsOf(rangeOf(query)), [rangeKey]);
  const filters = { metadata: `enduser.id:${user}` };
  const boundsKey = `${project.id}|${rangeKey}|${user}`;
  const summary = useData(() => api(projectApi(project.id, `/llm-users/${encodeURIComponent(user)}`), { query: bounds }), `user|${boundsKey}`);
  const breakdown = useData(() => api(projectApi(project.id, '/llm-breakdown'), { query: { ...bounds, ...filters, buckets: 48 } }), `user-breakdown|${boundsKey}`);
  const cost = useMemo(() => breakdown.data && columns(breakdown.data, 'cost_usd'), [breakdown.data]);
  const s = summary.data;
  return html`
    <div class="page-head">
      <h1><${Link} href=${projectHref(project.id, 'llm')}>LLM usage</${Link}> › <span data-testid="llm-user-name">${user}</span></h1>
      <div class="head-actions"><${TimeRangePicker} /></div>
    </div>
    ${summary.error && html`<${ErrorBox} error=${summary.error} />`}
    ${!s && !summary.error && html`<${Loading} />`}
    ${
      s &&
      html`<div class="stats" data-testid="llm-user-stats">
        <div class="stat"><span class="stat-label">First seen</span><span class="stat-value small" data-testid="llm-user-first">${s.first_at ? formatTime(s.first_at) : '—'}</span></div>
        <div class="stat"><span class="stat-label">Last seen</span><span class="stat-value small" data-testid="llm-user-last">${s.last_at ? formatTime(s.last_at) : '—'}</span></div>
        <div class="stat"><span class="stat-label">Calls</span><span class="stat-value" data-testid="llm-user-calls">${formatNumber(s.calls)}</span></div>
        <div class="stat"><span class="stat-label">Sessions</span><span class="stat-value" data-testid="llm-user-sessions">${formatNumber(s.sessions)}</span></div>
        <div class="stat"><span class="stat-label">Tokens</span><span class="stat-value">${formatNumber(s.input_tokens + s.output_tokens)}</span></div>
        <div class="stat"><span class="stat-label">Cost</span><span class="stat-value" data-testid="llm-user-cost">${formatCost(s.cost_usd)}</span></div>
      </div>
      <section class="card" data-testid="llm-user-scores">
        <h2>Scores</h2>
        ${
          s.scores.length === 0
            ? html`<p class="muted">No score on their calls, traces or sessions in this range.</p>`
            : html`<div class="table-wrap"><table class="table compact">
              <thead><tr><th>Score</th><th class="num">Scores</th><th class="num">Average</th></tr></thead>
              <tbody>${s.scores.map(
                (a) => html`<tr key=${a.name} data-testid="llm-user-score"><td>${a.name}</td><td class="num">${formatNumber(a.count)}</td>
                  <td class="num">${a.average === null ? html`<span class="muted">labels</span>` : formatDecimal(a.average, 2)}</td></tr>`,
              )}</tbody>
            </table></div>`
        }
      </section>`
    }
    <section class="card">
      <h2>Cost by model (USD)</h2>
      ${breakdown.error && html`<${ErrorBox} error=${breakdown.error} />`}
      ${cost && html`<${TimeChart} data=${cost.data} series=${cost.series} stacked=${true} valueFormat=${formatCost} testId="llm-user-cost-chart" />`}
    </section>
    ${query.get('session') && html`<${SessionView} projectId=${project.id} bounds=${bounds} session=${query.get('session')} />`}
    ${query.get('trace') && html`<${TraceGenerations} projectId=${project.id} bounds=${bounds} traceId=${query.get('trace')} />`}
    <${SessionList} projectId=${project.id} bounds=${bounds} filters=${filters} boundsKey=${boundsKey} />
    <${CallList} projectId=${project.id} bounds=${bounds} filters=${filters} boundsKey=${boundsKey} sort="time" sortScore="" order="desc" />
  `;
}
