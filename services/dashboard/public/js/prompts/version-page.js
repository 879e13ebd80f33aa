import { html } from 'htm/preact';
import { useMemo } from 'preact/hooks';
import { api, ApiError } from '../lib/api.js';
import { Link, useLocation } from '../lib/router.js';
import { boundsOf, rangeOf } from '../lib/time-range.js';
import { useData } from '../lib/use-data.js';
import { formatCost, formatDecimal, formatNumber, formatTime } from '../lib/format.js';
import { TimeRangePicker } from '../components/time-range-picker.js';
import { ErrorBox, Loading } from '../components/status.js';
import { NotFound } from '../pages/not-found.js';
import { LabelBadges } from './label-badges.js';
import { promptApi, promptPage, promptsPage, versionPage } from './prompt-paths.js';

// One version: its content and config, and its calls beside the previous version's over the
// range: count, effective cost in total and per call, tokens, latency (docs/dashboard.md, "Prompts").

/** Each row of the comparison: its name, how a figure is read and shown, and whether less is better. */
const ROWS = [
  { label: 'Calls', value: (f) => f.calls, show: formatNumber, lowerIsBetter: null },
  { label: 'Cost', value: (f) => f.cost_usd, show: formatCost, lowerIsBetter: true },
  { label: 'Cost per call', value: (f) => f.cost_per_call_usd, show: formatCost, lowerIsBetter: true },
  { label: 'Input tokens', value: (f) => f.input_tokens, show: formatNumber, lowerIsBetter: true },
  { label: 'Output tokens', value: (f) => f.output_tokens, show: formatNumber, lowerIsBetter: true },
  { label: 'Latency p50', value: (f) => f.latency_p50_ms, show: (n) => `${formatNumber(n)} ms`, lowerIsBetter: true },
  { label: 'Latency p95', value: (f) => f.latency_p95_ms, show: (n) => `${formatNumber(n)} ms`, lowerIsBetter: true },
];

/**
 * The LLM page's calls of this version as devtrail's SDK links them, in the same range.
 * @param {string} projectId @param {string} name @param {number} version @param {URLSearchParams} query
 */
function callsHref(projectId, name, version, query) {
  const q = new URLSearchParams();
  for (const k of ['range', 'from', 'to']) if (query.get(k)) q.set(k, /** @type {string} */ (query.get(k)));
  q.set('q', `prompt.name:"${name}" prompt.version:${version}`);
  return `/projects/${encodeURIComponent(projectId)}/llm?${q}`;
}

/** The change from the previous version, as a share, or null when it cannot be said. */
/** One row per score name either version has: its average (a categorical score shows its count). */
function scoreRows(c) {
  const names = [...new Set([...c.version.scores, ...(c.previous?.scores ?? [])].map((s) => s.name))].sort();
  const of = (f, name) => f.scores.find((s) => s.name === name);
  return names.map((name) => {
    const labels = [c.version, c.previous].some((f) => f && of(f, name)?.average === null);
    return {
      label: `Score: ${name}`,
      value: (f) => {
        const s = of(f, name);
        return s ? (labels ? s.count : s.average) : null;
      },
      show: (n) => (n === null ? '—' : labels ? `×${formatNumber(n)}` : formatDecimal(n, 2)),
      lowerIsBetter: labels ? null : false,
    };
  });
}

function change(now, before) {
  if (now === null || !before || before === 0) return null;
  return (now - before) / before;
}

/** @param {{ project: { id: string }, params: { name: string, version: string } }} props */
export function VersionPage({ project, params }) {
  const { query } = useLocation();
  const { name } = params;
  const number = Number(params.version);
  const rangeKey = ['range', 'from', 'to'].map((k) => query.get(k)).join('|');
  const bounds = useMemo(() => boundsOf(rangeOf(query)), [rangeKey]);
  const v = useData(() => api(promptApi(project.id, name, `/versions/${number}`)), `${project.id}|${name}|${number}`);
  const cmp = useData(() => api(promptApi(project.id, name, `/versions/${number}/comparison`), { query: bounds }), `${project.id}|${name}|${number}|${rangeKey}`);
  if (v.error instanceof ApiError && (v.error.status === 404 || v.error.status === 400)) return html`<${NotFound} what="Prompt version" />`;
  const version = v.data?.version;
  const c = cmp.data;
  return html`
    <div class="page-head">
      <h1><${Link} href=${promptsPage(project.id)}>Prompts</${Link}> / <${Link} href=${promptPage(project.id, name)}>${name}</${Link}> / v${number}</h1>
      <div class="head-actions"><${TimeRangePicker} /></div>
    </div>
    ${v.error && html`<${ErrorBox} error=${v.error} />`}
    ${v.loading && !version && html`<${Loading} />`}
    ${
      version &&
      html`<section class="card" data-testid="version-content">
        <div class="row spread">
          <h2>Version ${version.version} <${LabelBadges} labels=${version.labels} /></h2>
          <span class="muted small">${version.created_by} · ${formatTime(version.created_at, { seconds: false })}</span>
        </div>
        ${version.commit_message && html`<p>${version.commit_message}</p>`}
        ${
          typeof version.prompt === 'string'
            ? html`<pre class="prompt-text">${version.prompt}</pre>`
            : version.prompt.map(
                (m, i) => html`<div key=${i} class="prompt-message"><span class="msg-role">${m.role}</span><pre class="prompt-text">${m.content}</pre></div>`,
              )
        }
        ${Object.keys(version.config).length > 0 && html`<h3>Config</h3><pre class="prompt-text">${JSON.stringify(version.config, null, 2)}</pre>`}
      </section>`
    }
    <section class="card" data-testid="version-comparison">
      <h2>${number > 1 ? html`Compared with <${Link} href=${versionPage(project.id, name, number - 1)}>v${number - 1}</${Link}>` : 'Calls of this version'}</h2>
      <p class="muted small">LLM calls whose metadata names this prompt and version (prompt.name, prompt.version, or Langfuse's), in the time range. Costs are effective: as sent, else estimated.</p>
      <p class="small"><${Link} href=${callsHref(project.id, name, number, query)} data-testid="version-calls-link">Show the calls sent with prompt.name and prompt.version</${Link}></p>
      ${cmp.error && html`<${ErrorBox} error=${cmp.error} />`}
      ${cmp.loading && !c && html`<${Loading} />`}
      ${
        c &&
        html`<div class="table-wrap"><table class="table" data-testid="comparison-table">
          <thead><tr><th></th><th class="num">v${c.version.version}</th>${c.previous && html`<th class="num">v${c.previous.version}</th><th class="num">Change</th>`}</tr></thead>
          <tbody>
            ${[...ROWS, ...scoreRows(c)].map((r) => {
              const now = r.value(c.version);
              const before = c.previous ? r.value(c.previous) : null;
              const d = before === null ? null : change(now, before);
              const better = d === null || r.lowerIsBetter === null || d === 0 ? '' : d < 0 === r.lowerIsBetter ? 'ok-text' : 'error-text';
              return html`<tr key=${r.label} data-testid="comparison-row">
                <th scope="row">${r.label}</th>
                <td class="num" data-testid="comparison-now">${r.show(now)}</td>
                ${c.previous && html`<td class="num">${r.show(before)}</td><td class=${`num ${better}`}>${d === null ? '—' : `${d > 0 ? '+' : ''}${Math.round(d * 100)}%`}</td>`}
              </tr>`;
            })}
          </tbody>
        </table></div>`
      }
    </section>
  `;
}
