import { html } from 'htm/preact';
import { formatDuration } from '../lib/format.js';
import { serviceColor } from '../lib/service-colors.js';

// Spans in tree order (children under their parent, by start), each a bar on the trace's
// time axis in its service's colour (red outline when it failed), with a duration label that
// is always readable: beside the bar on whichever side has room, else on its own pill in it.

export function orderSpans(spans) {
  const ids = new Set(spans.map((s) => s.span_id));
  const children = new Map();
  for (const s of spans) {
    const parent = s.parent_span_id && ids.has(s.parent_span_id) && s.parent_span_id !== s.span_id ? s.parent_span_id : '';
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(s);
  }
  const out = [];
  const seen = new Set();
  const walk = (parent, depth) => {
    const list = (children.get(parent) || []).slice().sort((a, b) => (a.start_time < b.start_time ? -1 : 1));
    for (const s of list) {
      if (seen.has(s.span_id)) continue;
      seen.add(s.span_id);
      out.push({ span: s, depth });
      walk(s.span_id, depth + 1);
    }
  };
  walk('', 0);
  return out;
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

export function Waterfall({ spans, selected, onSelect }) {
  const start = Math.min(...spans.map((s) => Date.parse(s.start_time)));
  const end = Math.max(...spans.map((s) => Date.parse(s.start_time) + s.duration_ms));
  const total = Math.max(1, end - start);
  const services = [...new Set(spans.map((s) => s.service))];
  const ticks = ticksOf(total);
  return html`
    <div class="wf-legend" data-testid="wf-legend">
      ${services.map((s) => html`<span class="service-tag"><span class="dot" style=${{ background: serviceColor(s) }}></span>${s}</span>`)}
    </div>
    <div class="waterfall" data-testid="waterfall">
      <div class="wf-head">
        <span>Operation</span>
        <span class="wf-axis" data-testid="wf-axis">
          ${ticks.map(
            (t) =>
              html`<span class=${t === 0 ? 'wf-tick first' : t / total > 0.9 ? 'wf-tick last' : 'wf-tick'} style=${{ left: `${(t / total) * 100}%` }}>${formatDuration(t)}</span>`,
          )}
        </span>
      </div>
      ${orderSpans(spans).map(({ span: s, depth }) => {
        const left = ((Date.parse(s.start_time) - start) / total) * 100;
        const width = Math.min(Math.max(0.3, (s.duration_ms / total) * 100), 100 - left);
        const label = formatDuration(s.duration_ms);
        const title = `${s.operation} · ${s.service} · ${label}${s.status === 'error' ? ' · failed' : ''}`;
        return html`<button type="button" key=${s.event_id} class=${`wf-row${selected === s.span_id ? ' selected' : ''}`} onClick=${() => onSelect(s.span_id)} data-testid="span-row" title=${title}>
          <span class="wf-name" style=${{ paddingLeft: `${depth * 14 + 4}px` }}>
            <span class=${s.status === 'error' ? 'dot dot-error' : 'dot'} style=${s.status === 'error' ? undefined : { background: serviceColor(s.service) }}></span>
            <span class="wf-op">${s.operation}</span>
            <span class="muted small"> ${s.service}</span>
          </span>
          <span class="wf-track">
            ${ticks.map((t) => html`<span class="wf-grid" style=${{ left: `${(t / total) * 100}%` }}></span>`)}
            <span class=${s.status === 'error' ? 'wf-bar wf-bar-error' : 'wf-bar'} style=${{ left: `${left}%`, width: `${width}%`, background: serviceColor(s.service) }}></span>
            <span class=${`wf-label wf-label-${placement(left, width)}`} data-testid="wf-label" style=${LABEL_STYLE[placement(left, width)](left, width)}>${label}</span>
          </span>
        </button>`;
      })}
    </div>
  `;
}
