import { html } from 'htm/preact';
import { useMemo } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { useData, useInterval } from '../lib/use-data.js';
import { formatNumber, timeAgo } from '../lib/format.js';
import { TimeChart } from '../components/time-chart.js';
import { ErrorBox, Loading } from '../components/status.js';

// Ingestion health: stored events per minute and kind by receive time (when the consumers
// wrote them, whatever time the events carry), and the consumers' lag (when this process can
// see its consumers).

const KINDS = ['log', 'error', 'span', 'llm'];
const LABELS = { log: 'Logs', error: 'Errors', span: 'Spans', llm: 'LLM records' };
const MINUTES = 60;

function perMinuteColumns(rows) {
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  const xs = Array.from({ length: MINUTES }, (_, i) => (now - (MINUTES - 1 - i) * 60_000) / 1000);
  const index = new Map(xs.map((x, i) => [x, i]));
  const ys = KINDS.map(() => new Array(MINUTES).fill(0));
  for (const r of rows) {
    const i = index.get(Date.parse(r.minute) / 1000);
    const k = KINDS.indexOf(r.kind);
    if (i !== undefined && k >= 0) ys[k][i] = r.events;
  }
  return { data: [xs, ...ys], series: KINDS.map((k) => ({ label: LABELS[k] })) };
}

export function IngestionPage({ project }) {
  const { data, error, reload } = useData(() => api(projectApi(project.id, '/ingestion'), { query: { minutes: MINUTES } }), project.id);
  useInterval(reload, 10_000);
  const chart = useMemo(() => data && perMinuteColumns(data.per_minute), [data]);
  const totals = data ? KINDS.map((k) => data.per_minute.filter((r) => r.kind === k).reduce((s, r) => s + r.events, 0)) : [];
  return html`
    <div class="page-head">
      <h1>Ingestion health</h1>
      <span class="muted">last ${MINUTES} minutes by receive time, refreshed every 10 s</span>
    </div>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${!data && !error && html`<${Loading} />`}
    ${
      data &&
      html`
      <div class="stats">
        ${KINDS.map((k, i) => html`<div class="stat"><span class="stat-label">${LABELS[k]} stored <span class="small">(by receive time)</span></span><span class="stat-value" data-testid=${`ingested-${k}`}>${formatNumber(totals[i])}</span></div>`)}
      </div>
      <section class="card">
        <h2>Events stored per minute, by receive time</h2>
        <${TimeChart} data=${chart.data} series=${chart.series} testId="ingestion-chart" />
      </section>
      <section class="card">
        <h2>Consumers</h2>
        ${
          !Array.isArray(data.consumers)
            ? html`<p class="muted">Consumer lag is not visible from this process (distributed mode: see each consumers process's /metrics).</p>`
            : html`<div class="table-wrap"><table class="table" data-testid="consumers-table">
              <thead><tr><th>Consumer</th><th>Topic</th><th class="num">Lag</th><th class="num">Written</th><th class="num">Dead-lettered</th><th>Last write</th><th>Last error</th></tr></thead>
              <tbody>
                ${data.consumers.map(
                  (c) => html`<tr key=${c.name}>
                    <td>${c.name}</td>
                    <td class="mono small">${c.topic}</td>
                    <td class="num">${c.lag === null || c.lag === undefined ? '—' : formatNumber(c.lag)}</td>
                    <td class="num">${formatNumber(c.written || 0)}</td>
                    <td class="num">${formatNumber(c.deadLettered || 0)}</td>
                    <td>${c.lastWriteAt ? timeAgo(c.lastWriteAt) : '—'}</td>
                    <td class="message">${c.lastError || '—'}</td>
                  </tr>`,
                )}
              </tbody>
            </table></div>`
        }
      </section>
    `
    }
  `;
}
