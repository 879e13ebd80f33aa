import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { Link, setQuery } from '../lib/router.js';
import { projectHref } from '../lib/view-state.js';
import { useData } from '../lib/use-data.js';
import { formatCost, formatDuration, formatNumber } from '../lib/format.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';
import { CallCost, Conversation } from './llm-conversation.js';

// One trace's generations (docs/dashboard.md, "LLM usage"): the trace's spans as a tree, each
// LLM call under the span that made it (its metadata span_id) with its conversation, tokens and
// cost, and the trace's total. Calls whose span never arrived are listed after the tree.

/** @typedef {{ from: number, to: number }} Bounds */

/** Spans depth first, children in start order, each with its depth; spans whose parent is missing are roots. */
export function spanTree(spans) {
  const ids = new Set(spans.map((s) => s.span_id));
  /** @type {Map<string, any[]>} */
  const children = new Map();
  for (const s of spans) {
    const parent = s.parent_span_id && ids.has(s.parent_span_id) && s.parent_span_id !== s.span_id ? s.parent_span_id : '';
    children.set(parent, [...(children.get(parent) || []), s]);
  }
  const out = [];
  const seen = new Set();
  const walk = (/** @type {string} */ id, /** @type {number} */ depth) => {
    for (const s of children.get(id) || []) {
      if (seen.has(s.span_id)) continue; // a cycle in what was sent
      seen.add(s.span_id);
      out.push({ span: s, depth });
      walk(s.span_id, depth + 1);
    }
  };
  walk('', 0);
  return out;
}

/** @param {{ call: any }} props */
function Generation({ call }) {
  const [open, setOpen] = useState(false);
  return html`<div class="generation" data-testid="llm-generation">
    <button type="button" class="link-button" onClick=${() => setOpen(!open)} aria-expanded=${open}>
      ${open ? '▾' : '▸'} ${call.model}
    </button>
    <span class="muted small"> ${formatNumber(call.input_tokens)} in / ${formatNumber(call.output_tokens)} out · </span><${CallCost} call=${call} />
    ${open && html`<${Conversation} call=${call} />`}
  </div>`;
}

/** @param {{ projectId: string, bounds: Bounds, traceId: string }} props */
export function TraceGenerations({ projectId, bounds, traceId }) {
  const { data, error, loading } = useData(
    () => api(projectApi(projectId, `/llm-traces/${encodeURIComponent(traceId)}`), { query: bounds }),
    `llm-trace|${projectId}|${bounds.from}|${bounds.to}|${traceId}`,
  );
  const bySpan = new Map();
  for (const c of data?.calls || []) {
    const span = typeof c.metadata?.span_id === 'string' ? c.metadata.span_id : '';
    bySpan.set(span, [...(bySpan.get(span) || []), c]);
  }
  const tree = data ? spanTree(data.spans) : [];
  const placed = new Set(tree.map((t) => t.span.span_id));
  const unplaced = (data?.calls || []).filter((c) => !placed.has(c.metadata?.span_id));
  return html`<section class="card" data-testid="llm-trace">
    <div class="row spread">
      <h2>Trace <code>${traceId}</code></h2>
      <div class="row">
        <${Link} href=${projectHref(projectId, `traces/${encodeURIComponent(traceId)}`)} class="btn">Waterfall</${Link}>
        <button type="button" class="btn" onClick=${() => setQuery({ trace: null }, { replace: false })}>Close</button>
      </div>
    </div>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${loading && !data && html`<${Loading} />`}
    ${
      data &&
      html`<p class="muted" data-testid="llm-trace-total">
        ${`${formatNumber(data.total.calls)} generation${data.total.calls === 1 ? '' : 's'} · ${formatNumber(data.total.input_tokens + data.total.output_tokens)} tokens · `}
        <span data-testid="llm-trace-cost">${formatCost(data.total.cost_usd)}</span>
      </p>`
    }
    ${data && tree.length === 0 && unplaced.length === 0 && html`<${Empty}>Nothing of this trace in this time range.</${Empty}>`}
    <ul class="span-tree">
      ${tree.map(
        ({ span, depth }) => html`<li key=${span.span_id} style=${`--depth: ${depth}`} data-testid="llm-trace-span">
          <div class="span-tree-row">
            <span class="span-tree-name">${span.operation}</span>
            <span class="muted small">${span.service} · ${formatDuration(span.duration_ms)}</span>
          </div>
          ${(bySpan.get(span.span_id) || []).map((c) => html`<${Generation} key=${c.event_id} call=${c} />`)}
        </li>`,
      )}
    </ul>
    ${
      unplaced.length > 0 &&
      html`<h3>Calls without their span</h3>
      ${unplaced.map((c) => html`<${Generation} key=${c.event_id} call=${c} />`)}`
    }
  </section>`;
}
