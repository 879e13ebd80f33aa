import { html } from 'htm/preact';

/** A tiny SVG bar chart of counts per bucket (the error list's activity column). */
export function Sparkline({ values, width = 120, height = 28 }) {
  if (!values || values.length === 0) return html`<svg class="sparkline" width=${width} height=${height}></svg>`;
  const max = Math.max(1, ...values);
  const w = width / values.length;
  return html`
    <svg class="sparkline" width=${width} height=${height} viewBox=${`0 0 ${width} ${height}`} role="img" aria-label=${`activity, peak ${max}`}>
      ${values.map((v, i) => {
        const h = v === 0 ? 1 : Math.max(2, (v / max) * (height - 2));
        return html`<rect x=${i * w + 0.5} y=${height - h} width=${Math.max(1, w - 1)} height=${h} class=${v === 0 ? 'spark-zero' : 'spark-bar'} />`;
      })}
    </svg>
  `;
}
