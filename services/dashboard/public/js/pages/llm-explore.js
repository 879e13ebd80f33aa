import { html } from 'htm/preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { Link, setQuery } from '../lib/router.js';
import { useData } from '../lib/use-data.js';
import { formatCost, formatNumber, formatTime, zoneLabel } from '../lib/format.js';
import { projectHref } from '../lib/view-state.js';
import { JsonView } from '../components/json-view.js';
import { TimeChart } from '../components/time-chart.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';
import { CallCost, Conversation } from './llm-conversation.js';
import { CallScores, ScoreBadges } from './llm-scores.js';

// The LLM page's explorer parts: latency over time, usage by any metadata key (the user and
// the session among them), and the calls one by one, sorted and searched as asked, each
// opening to its conversation, metadata and a link to its trace (the trace id the SDK and
// the OTLP mapping keep in the metadata). Every cost is the effective cost.

/** @typedef {{ from: number, to: number }} Bounds */
/** @typedef {{ service?: string, model?: string, metadata?: string, q?: string, session?: string, score?: string }} CallFilters */

/** Metadata keys offered first: who made the call and in which session (docs/otlp.md). */
const ATTRIBUTION_KEYS = ['enduser.id', 'session.id'];

/** @param {{ projectId: string, bounds: Bounds, filters: CallFilters, boundsKey: string }} props */
export function LatencyChart({ projectId, bounds, filters, boundsKey }) {
  const { data, error } = useData(() => api(projectApi(projectId, '/llm-calls/latency'), { query: { ...bounds, ...filters, buckets: 48 } }), `lat|${boundsKey}`);
  const chart = useMemo(() => {
    if (!data) return null;
    const xs = Array.from({ length: data.buckets }, (_, i) => (data.from + i * data.step_ms) / 1000);
    // A bucket without calls has no latency: a gap, not a zero.
    const gaps = (/** @type {number[]} */ ys) => ys.map((v, i) => (data.calls[i] ? v : null));
    return { data: [xs, gaps(data.p50), gaps(data.p95)], series: [{ label: 'p50 (ms)' }, { label: 'p95 (ms)', color: '#ef4444' }] };
  }, [data]);
  return html`<section class="card">
    <h2>Latency over time</h2>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${chart && html`<${TimeChart} data=${chart.data} series=${chart.series} testId="llm-latency-chart" />`}
  </section>`;
}

/** @param {{ projectId: string, bounds: Bounds, filters: CallFilters, boundsKey: string, by: string }} props */
export function MetadataBreakdown({ projectId, bounds, filters, boundsKey, by }) {
  const keys = useData(() => api(projectApi(projectId, '/llm-calls/metadata-keys'), { query: { ...bounds, ...filters } }), `keys|${boundsKey}`);
  const present = (keys.data?.keys || []).map((k) => k.key);
  const available = [...ATTRIBUTION_KEYS.filter((k) => present.includes(k)), ...present.filter((k) => !ATTRIBUTION_KEYS.includes(k))];
  const key = by || available.find((k) => k !== 'trace_id' && k !== 'span_id') || available[0] || '';
  const [sort, setSort] = useState('calls');
  const rows = useData(
    () => (key ? api(projectApi(projectId, '/llm-calls/by-metadata'), { query: { ...bounds, ...filters, key, sort } }) : Promise.resolve({ key, values: [] })),
    `by|${boundsKey}|${key}|${sort}`,
  );
  return html`<section class="card" data-testid="llm-by-metadata">
    <div class="row spread">
      <h2>By metadata</h2>
      <label class="inline-label">Key
        <select data-testid="llm-metadata-key" value=${key} onChange=${(e) => setQuery({ by: e.currentTarget.value })} disabled=${available.length === 0}>
          ${available.map((k) => html`<option value=${k}>${k === 'enduser.id' ? 'user (enduser.id)' : k === 'session.id' ? 'session (session.id)' : k}</option>`)}
        </select>
      </label>
      <label class="inline-label">Sort
        <select data-testid="llm-metadata-sort" value=${sort} onChange=${(e) => setSort(e.currentTarget.value)}>
          ${['calls', 'cost', 'tokens', 'latency'].map((k) => html`<option value=${k}>${k}</option>`)}
        </select>
      </label>
    </div>
    ${keys.error && html`<${ErrorBox} error=${keys.error} />`}
    ${rows.error && html`<${ErrorBox} error=${rows.error} />`}
    ${available.length === 0 && keys.data && html`<p class="muted">The calls in this range carry no metadata.</p>`}
    ${
      rows.data &&
      rows.data.values.length > 0 &&
      html`<div class="table-wrap"><table class="table compact">
        <thead><tr><th>${key}</th><th class="num">Calls</th><th class="num">Input tokens</th><th class="num">Output tokens</th><th class="num">Cost</th><th class="num">Estimated</th><th class="num">p50</th><th class="num">p95</th></tr></thead>
        <tbody>
          ${rows.data.values.map(
            (v) => html`<tr key=${String(v.value)} data-testid="llm-metadata-row">
              <td>${
                v.value === null
                  ? html`<span class="muted">(no ${key})</span>`
                  : html`<button type="button" class="link-button" title="Show these calls" onClick=${() => setQuery({ metadata: `${key}:${v.value}` }, { replace: false })}>${v.value}</button>`
              }</td>
              <td class="num">${formatNumber(v.calls)}</td>
              <td class="num">${formatNumber(v.input_tokens)}</td>
              <td class="num">${formatNumber(v.output_tokens)}</td>
              <td class="num" data-testid="llm-metadata-cost">${formatCost(v.cost_usd)}</td>
              <td class="num">${formatCost(v.estimated_cost_usd)}</td>
              <td class="num">${formatNumber(v.latency_p50_ms)} ms</td>
              <td class="num">${formatNumber(v.latency_p95_ms)} ms</td>
            </tr>`,
          )}
        </tbody>
      </table></div>`
    }
  </section>`;
}

const SORTS = [
  ['time', 'Time'],
  ['cost', 'Cost'],
  ['tokens', 'Tokens'],
  ['latency', 'Latency'],
];

/** Set by focusCalls: the call list scrolls itself into view once its next page of calls has loaded. */
let focusPending = false;
/** Brings the call list into view when the filters just set have loaded (the page above it may change height meanwhile). */
export function focusCalls() {
  focusPending = true;
}

/** @param {{ projectId: string, bounds: Bounds, filters: CallFilters, boundsKey: string, sort: string, sortScore: string, order: string }} props */
export function CallList({ projectId, bounds, filters, boundsKey, sort, sortScore, order }) {
  // Sorting by a score needs its name (the Scores card's names set both); without one, by time.
  const byScore = sort === 'score' && sortScore !== '';
  const sorting = sort === 'score' && !byScore ? 'time' : sort;
  const [pages, setPages] = useState(
    /** @type {{ calls: any[], cursor: string | null, error: unknown, busy: boolean }} */ ({ calls: [], cursor: null, error: null, busy: true }),
  );
  const [open, setOpen] = useState(/** @type {string | null} */ (null));
  const gen = useRef(0);
  const load = async (/** @type {string | undefined} */ cursor) => {
    const mine = gen.current;
    setPages((p) => ({ ...p, busy: true }));
    try {
      const r = await api(projectApi(projectId, '/llm-calls'), {
        query: { ...bounds, ...filters, sort: sorting, ...(byScore ? { sort_score: sortScore } : {}), order, cursor, limit: 50 },
      });
      if (mine === gen.current) setPages((p) => ({ calls: cursor ? [...p.calls, ...r.calls] : r.calls, cursor: r.next_cursor, error: null, busy: false }));
    } catch (error) {
      if (mine === gen.current) setPages((p) => ({ ...p, error, busy: false }));
    }
  };
  useEffect(() => {
    gen.current++;
    setPages({ calls: [], cursor: null, error: null, busy: true });
    void load(undefined);
  }, [boundsKey, sorting, sortScore, order]);
  const [draft, setDraft] = useState(filters.q || '');
  useEffect(() => setDraft(filters.q || ''), [filters.q]);
  const section = useRef(/** @type {HTMLElement | null} */ (null));
  useEffect(() => {
    if (!focusPending || pages.busy) return;
    focusPending = false;
    section.current?.scrollIntoView({ block: 'start' });
  }, [pages.busy]);
  return html`<section class="card" data-testid="llm-calls" ref=${section}>
    <div class="row spread">
      <h2>Calls</h2>
      <form class="row" onSubmit=${(e) => {
        e.preventDefault();
        setQuery({ q: draft.trim() || null }, { replace: false });
      }}>
        <input type="search" class="input" data-testid="llm-search" placeholder="Search the conversation and metadata (logs syntax)" value=${draft} onInput=${(e) => setDraft(e.currentTarget.value)} />
        <label class="inline-label">Sort
          <select data-testid="llm-sort" value=${sorting} onChange=${(e) => setQuery({ sort: e.currentTarget.value === 'time' ? null : e.currentTarget.value, sort_score: null })}>
            ${SORTS.map(([k, label]) => html`<option value=${k}>${label}</option>`)}
            ${byScore && html`<option value="score">Score: ${sortScore}</option>`}
          </select>
        </label>
        <button type="button" class="btn" data-testid="llm-order" title="Reverse the order" onClick=${() => setQuery({ order: order === 'asc' ? null : 'asc' })}>${order === 'asc' ? '↑ ascending' : '↓ descending'}</button>
      </form>
    </div>
    ${
      (filters.model || filters.metadata || filters.q || filters.score) &&
      html`<span class="chips">${
        /** @type {Array<[string, string | undefined]>} */ ([
          ['model', filters.model],
          ['metadata', filters.metadata],
          ['q', filters.q],
          ['score', filters.score],
        ])
          .filter(([, v]) => v)
          .map(
            ([k, v]) =>
              html`<span class="chip">${k === 'metadata' ? v : k === 'q' ? `search: ${v}` : k === 'score' ? `score: ${v}` : `model: ${v}`}<button type="button" aria-label=${`Remove filter ${k}`} onClick=${() => setQuery({ [k]: null }, { replace: false })}>×</button></span>`,
          )
      }</span>`
    }
    ${pages.error && html`<${ErrorBox} error=${pages.error} />`}
    ${pages.busy && pages.calls.length === 0 && html`<${Loading} />`}
    ${!pages.busy && pages.calls.length === 0 && !pages.error && html`<${Empty}>No LLM calls match.</${Empty}>`}
    ${
      pages.calls.length > 0 &&
      html`<div class="table-wrap"><table class="table compact" data-testid="llm-calls-table">
        <thead><tr><th>Time <span class="muted small">(${zoneLabel()})</span></th><th>Model</th><th>Operation</th><th class="num">Tokens in / out</th><th class="num">Cost</th><th class="num">Latency</th><th>Scores</th><th>Service</th><th>Trace</th></tr></thead>
        <tbody>
          ${pages.calls.map((c) => {
            const traceId = c.metadata && typeof c.metadata === 'object' && typeof c.metadata.trace_id === 'string' ? c.metadata.trace_id : '';
            return html`
              <tr key=${c.event_id} class="clickable" data-testid="llm-call-row" onClick=${() => setOpen(open === c.event_id ? null : c.event_id)}>
                <td class="nowrap mono">${formatTime(c.timestamp)}</td>
                <td>${c.model}</td>
                <td>${c.operation}</td>
                <td class="num">${formatNumber(c.input_tokens)} / ${formatNumber(c.output_tokens)}</td>
                <td class="num" data-testid="llm-call-cost"><${CallCost} call=${c} /></td>
                <td class="num">${formatNumber(c.latency_ms)} ms</td>
                <td data-testid="llm-call-scores-cell"><${ScoreBadges} scores=${c.scores} /></td>
                <td>${c.service}</td>
                <td>${
                  traceId
                    ? html`<span class="row" onClick=${(e) => e.stopPropagation()}>
                        <button type="button" class="link-button" data-testid="llm-generations-link" title="This trace's generations and their total"
                          onClick=${() => setQuery({ trace: traceId }, { replace: false })}>generations</button>
                        <${Link} href=${projectHref(projectId, `traces/${encodeURIComponent(traceId)}`)} data-testid="llm-trace-link">waterfall</${Link}>
                      </span>`
                    : html`<span class="muted">—</span>`
                }</td>
              </tr>
              ${
                open === c.event_id &&
                html`<tr class="log-detail"><td colspan="9"><${CallScores} projectId=${projectId} call=${c} /><h4>Conversation</h4><${Conversation} call=${c} /><h4>Metadata</h4><${JsonView} value=${c.metadata} /></td></tr>`
              }
            `;
          })}
        </tbody>
      </table></div>`
    }
    ${pages.cursor && html`<button type="button" class="btn spaced" disabled=${pages.busy} onClick=${() => load(/** @type {string} */ (pages.cursor))}>Load more</button>`}
  </section>`;
}
