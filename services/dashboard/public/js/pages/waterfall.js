import { html } from 'htm/preact';
import { formatDuration } from '../lib/format.js';

// Spans in tree order (children under their parent, by start), with a bar placed on the
// trace's time axis. Spans whose parent is missing are shown at the top level.
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

export function Waterfall({ spans, selected, onSelect }) {
  const start = Math.min(...spans.map((s) => Date.parse(s.start_time)));
  const end = Math.max(...spans.map((s) => Date.parse(s.start_time) + s.duration_ms));
  const total = Math.max(1, end - start);
  return html`
    <div class="waterfall" data-testid="waterfall">
      <div class="wf-head"><span>Operation</span><span>0 ms</span><span>${formatDuration(total)}</span></div>
      ${orderSpans(spans).map(({ span: s, depth }) => {
        const left = ((Date.parse(s.start_time) - start) / total) * 100;
        const width = Math.max(0.5, (s.duration_ms / total) * 100);
        return html`<button type="button" key=${s.event_id} class=${`wf-row${selected === s.span_id ? ' selected' : ''}`} onClick=${() => onSelect(s.span_id)} data-testid="span-row">
          <span class="wf-name" style=${{ paddingLeft: `${depth * 16 + 4}px` }}>
            <span class=${s.status === 'error' ? 'dot dot-error' : 'dot dot-ok'}></span>${s.operation}
            <span class="muted small"> ${s.service}</span>
          </span>
          <span class="wf-track">
            <span class=${s.status === 'error' ? 'wf-bar wf-bar-error' : 'wf-bar'} style=${{ left: `${left}%`, width: `${Math.min(width, 100 - left)}%` }}></span>
            ${
              left + width > 85
                ? html`<span class="wf-label wf-label-inside" style=${{ right: `${Math.max(0, 100 - left - width)}%` }}>${formatDuration(s.duration_ms)}</span>`
                : html`<span class="wf-label" style=${{ left: `${left + width}%` }}>${formatDuration(s.duration_ms)}</span>`
            }
          </span>
        </button>`;
      })}
    </div>
  `;
}
