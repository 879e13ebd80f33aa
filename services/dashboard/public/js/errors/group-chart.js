import { html } from 'htm/preact';
import { formatNumber, formatTime } from '../lib/format.js';

// An error group's events over the range, one bar per step, and a marker where each release
// was first seen in the group (docs/dashboard.md, "An error group"). Plain SVG scaled to its
// box, so it reads the same on a phone and a desktop.

const W = 600;
const H = 120;
const TOP = 18;

/**
 * @param {{ chart: { from: string, step_ms: number, counts: number[] }, releases: Array<{ release: string, first_seen: string }> }} props
 */
export function GroupChart({ chart, releases }) {
  const from = Date.parse(chart.from);
  const n = chart.counts.length;
  const span = n * chart.step_ms;
  const max = Math.max(1, ...chart.counts);
  const bw = W / Math.max(1, n);
  const x = (/** @type {number} */ ms) => ((ms - from) / span) * W;
  const markers = releases.filter((r) => {
    const t = Date.parse(r.first_seen);
    return t >= from && t <= from + span;
  });
  return html`<figure class="group-chart" data-testid="group-chart">
    <svg viewBox=${`0 0 ${W} ${H + 16}`} preserveAspectRatio="none" role="img" aria-label=${`events per ${formatNumber(chart.step_ms / 60_000)} minutes, peak ${max}`}>
      ${chart.counts.map((c, i) => {
        const h = (c / max) * (H - TOP);
        return html`<rect class="bar" x=${i * bw + 1} y=${H - h} width=${Math.max(1, bw - 2)} height=${h}><title>${formatTime(new Date(from + i * chart.step_ms).toISOString(), { seconds: false })}: ${formatNumber(c)}</title></rect>`;
      })}
      ${markers.map(
        (r) => html`<g class="release-marker" data-testid="release-marker">
          <line x1=${x(Date.parse(r.first_seen))} x2=${x(Date.parse(r.first_seen))} y1=${TOP - 4} y2=${H} />
          <title>${`release ${r.release}, first seen ${formatTime(r.first_seen, { seconds: false })}`}</title>
        </g>`,
      )}
      <line class="axis" x1="0" x2=${W} y1=${H} y2=${H} />
    </svg>
    <figcaption class="muted small">
      <span>${formatTime(new Date(from).toISOString(), { seconds: false })}</span>
      ${markers.length > 0 && html`<span>Releases first seen: ${markers.map((r) => html`<span class="release-chip">${r.release}</span>`)}</span>`}
      <span>${formatTime(new Date(from + span).toISOString(), { seconds: false })}</span>
    </figcaption>
  </figure>`;
}
