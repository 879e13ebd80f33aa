import { html } from 'htm/preact';
import { formatDuration } from '../lib/format.js';

// Spans in tree order (children under their parent, by start), each a bar on the trace's
// time axis in its service's colour (red outline when it failed), with a duration label that
// is always readable: beside the bar on whichever side has room, else on its own pill in it.
// A span with children folds (▾/▸); spans a search within the trace matches are marked and
// the others dimmed; spans on the critical path carry a marker. The selected span's details
// render beside the waterfall (trace.js), or under its row on a phone (`detail`).

const startOf = (s) => Date.parse(s.start_time);
const endOf = (s) => startOf(s) + s.duration_ms;

/** Parent span id -> its children (a span whose parent is not in the trace is a root). */
export function childrenOf(spans) {
  const ids = new Set(spans.map((s) => s.span_id));
  const children = new Map();
  for (const s of spans) {
    const parent = s.parent_span_id && ids.has(s.parent_span_id) && s.parent_span_id !== s.span_id ? s.parent_span_id : '';
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(s);
  }
  for (const list of children.values()) list.sort((a, b) => (a.start_time < b.start_time ? -1 : a.start_time > b.start_time ? 1 : 0));
  return children;
}

/** Rows in tree order with their depth and child count; the children of a span in `collapsed` are left out. */
export function orderSpans(spans, collapsed = new Set()) {
  const children = childrenOf(spans);
  const out = [];
  const seen = new Set();
  const walk = (parent, depth) => {
    for (const s of children.get(parent) || []) {
      if (seen.has(s.span_id)) continue;
      seen.add(s.span_id);
      const kids = (children.get(s.span_id) || []).length;
      out.push({ span: s, depth, kids });
      if (!collapsed.has(s.span_id)) walk(s.span_id, depth + 1);
    }
  };
  walk('', 0);
  return out;
}

/** Every span under one (not itself). */
export function descendantsOf(spans, spanId) {
  const children = childrenOf(spans);
  const out = [];
  const stack = [...(children.get(spanId) || [])];
  while (stack.length) {
    const s = stack.pop();
    out.push(s);
    stack.push(...(children.get(s.span_id) || []));
  }
  return out;
}

/**
 * The critical path: the spans the trace's end waited on. From the root, the child that ends
 * last (cut at where the work after it began) is on the path, then the child ending last
 * before that one started, and so on, into each such child.
 */
export function criticalPath(spans) {
  const children = childrenOf(spans);
  const on = new Set();
  const walk = (span, limit) => {
    on.add(span.span_id);
    let until = Math.min(limit, endOf(span));
    const kids = (children.get(span.span_id) || []).slice().sort((a, b) => endOf(b) - endOf(a));
    for (const c of kids) {
      if (startOf(c) >= until) continue;
      walk(c, until);
      until = startOf(c);
    }
  };
  for (const root of children.get('') || []) walk(root, endOf(root));
  return on;
}

/** Whether a span has the text (any case) in its operation, service, ids or attributes. */
export function spanHas(span, text) {
  const t = text.trim().toLowerCase();
  if (!t) return false;
  return [span.operation, span.service, span.span_id, span.status, JSON.stringify(span.metadata ?? {})].some((v) => String(v).toLowerCase().includes(t));
}

/** Tick positions (ms from the start) at a round step, about `count` of them. @param {number} total */
export function ticksOf(total, count = 5) {
  const raw = total / count;
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-3)));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const out = [];
  for (let t = 0; t <= total + 1e-9; t += step) out.push(t);
  return out;
}

/** Where a bar's label goes: after the bar or before it where there is room, else inside it on a pill of its own. */
const placement = (/** @type {number} */ left, /** @type {number} */ width) => (100 - left - width >= 20 ? 'after' : left >= 20 ? 'before' : 'inside');
const LABEL_STYLE = {
  after: (/** @type {number} */ left, /** @type {number} */ width) => ({ left: `calc(${left + width}% + 4px)` }),
  before: (/** @type {number} */ left) => ({ right: `calc(${100 - left}% + 4px)` }),
  inside: (/** @type {number} */ left, /** @type {number} */ width) => ({ right: `calc(${100 - left - width}% + 3px)` }),
};

/**
 * @param {{ spans: any[], selected: string, onSelect: (id: string) => void, color: (s: string) => string, collapsed: Set<string>, onFold: (id: string) => void,
 *   matches: Set<string> | null, critical: Set<string> | null, detail?: any }} props
 */
export function Waterfall({ spans, selected, onSelect, color, collapsed, onFold, matches, critical, detail }) {
  const start = Math.min(...spans.map(startOf));
  const end = Math.max(...spans.map(endOf));
  const total = Math.max(1, end - start);
  const services = [...new Set(spans.map((s) => s.service))];
  const ticks = ticksOf(total);
  return html`
    <div class="wf-legend" data-testid="wf-legend">
      ${services.map((s) => html`<span class="service-tag"><span class="dot" style=${{ background: color(s) }}></span>${s}</span>`)}
      ${critical && html`<span class="wf-legend-note small"><span class="wf-critical-mark"></span>critical path</span>`}
    </div>
    <div class="waterfall" data-testid="waterfall" role="tree" aria-label="Spans">
      <div class="wf-head">
        <span>Operation</span>
        <span class="wf-axis" data-testid="wf-axis">
          ${ticks.map(
            (t) =>
              html`<span class=${t === 0 ? 'wf-tick first' : t / total > 0.9 ? 'wf-tick last' : 'wf-tick'} style=${{ left: `${(t / total) * 100}%` }}>${formatDuration(t)}</span>`,
          )}
        </span>
      </div>
      ${orderSpans(spans, collapsed).map(({ span: s, depth, kids }) => {
        const left = ((startOf(s) - start) / total) * 100;
        const width = Math.min(Math.max(0.3, (s.duration_ms / total) * 100), 100 - left);
        const label = formatDuration(s.duration_ms);
        const title = `${s.operation} · ${s.service} · ${label}${s.status === 'error' ? ' · failed' : ''}`;
        const isSelected = selected === s.span_id;
        const folded = collapsed.has(s.span_id);
        const classes = [
          'wf-row',
          isSelected && 'selected',
          matches && (matches.has(s.span_id) ? 'wf-match' : 'wf-dim'),
          critical?.has(s.span_id) && 'wf-critical',
        ].filter(Boolean);
        return html`<div class="wf-item" key=${s.event_id} role="treeitem" aria-level=${depth + 1} aria-selected=${isSelected} aria-expanded=${kids ? !folded : undefined}>
          <div class=${classes.join(' ')} data-testid="span-row" data-span=${s.span_id} title=${title}>
            <span class="wf-name" style=${{ '--depth': depth }}>
              ${
                kids > 0
                  ? html`<button type="button" class="wf-fold" data-testid="span-fold" aria-label=${`${folded ? 'Expand' : 'Collapse'} ${s.operation} (${kids} child span${kids === 1 ? '' : 's'})`}
                      onClick=${() => onFold(s.span_id)}>${folded ? '▸' : '▾'}</button>`
                  : html`<span class="wf-fold-space"></span>`
              }
              <button type="button" class="wf-select" onClick=${() => onSelect(s.span_id)} data-testid="span-select">
                <span class=${s.status === 'error' ? 'dot dot-error' : 'dot'} style=${s.status === 'error' ? undefined : { background: color(s.service) }}></span>
                <span class="wf-op">${s.operation}</span>
                <span class="muted small"> ${s.service}</span>
                ${folded && html`<span class="muted small" data-testid="span-hidden"> +${descendantsOf(spans, s.span_id).length}</span>`}
              </button>
            </span>
            <span class="wf-track" onClick=${() => onSelect(s.span_id)}>
              ${ticks.map((t) => html`<span class="wf-grid" style=${{ left: `${(t / total) * 100}%` }}></span>`)}
              <span class=${s.status === 'error' ? 'wf-bar wf-bar-error' : 'wf-bar'} style=${{ left: `${left}%`, width: `${width}%`, background: color(s.service) }}></span>
              <span class=${`wf-label wf-label-${placement(left, width)}`} data-testid="wf-label" style=${LABEL_STYLE[placement(left, width)](left, width)}>${label}</span>
            </span>
          </div>
          ${isSelected && detail && html`<div class="wf-inline-detail">${detail}</div>`}
        </div>`;
      })}
    </div>
  `;
}
