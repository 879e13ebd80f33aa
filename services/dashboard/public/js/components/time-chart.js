import { html } from 'htm/preact';
import { useEffect, useRef } from 'preact/hooks';

// Time series with uPlot, loaded only on pages that chart something.
// data: [xs (unix seconds), ...ys]; series: [{ label }] for each y. `stacked` draws
// stacked bars (each series' bar sits on the ones before it; the legend shows its own value).

export const PALETTE = ['#3b82f6', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#06b6d4', '#ec4899', '#84cc16', '#64748b', '#f97316'];

let uPlotModule;
const loadUPlot = () => (uPlotModule ??= import('uplot').then((m) => m.default));

/** Cumulative sums, drawn tallest first so each series shows as its own band. */
function stack(data) {
  const [xs, ...ys] = data;
  const sums = [];
  let running = new Array(xs.length).fill(0);
  for (const y of ys) {
    running = running.map((v, i) => v + (y[i] || 0));
    sums.push(running);
  }
  return [xs, ...sums.reverse()];
}

function options(uPlot, { data, series, height, yLabel, stacked, width }) {
  const ordered = stacked ? series.map((s, i) => ({ ...s, index: i })).reverse() : series.map((s, i) => ({ ...s, index: i }));
  return {
    width,
    height,
    legend: { live: true },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true } },
    axes: [{}, { label: yLabel, size: 60 }],
    series: [
      {},
      ...ordered.map((s) => {
        const color = PALETTE[s.index % PALETTE.length];
        return {
          label: s.label,
          stroke: color,
          fill: stacked ? color : undefined,
          width: stacked ? 0 : 2,
          points: { show: !stacked && data[0].length < 60 },
          paths: stacked ? uPlot.paths.bars({ size: [0.9, 60] }) : undefined,
          // Stacked: the legend shows the series' own value, not the running sum.
          value: stacked ? (_u, _v, _si, idx) => (idx == null ? '--' : String(+(data[s.index + 1][idx] || 0).toFixed(4))) : undefined,
        };
      }),
    ],
  };
}

export function TimeChart({ data, series, height = 220, yLabel, stacked = false, testId }) {
  const box = useRef(/** @type {HTMLDivElement | null} */ (null));
  useEffect(() => {
    let plot;
    let alive = true;
    let observer;
    loadUPlot().then((uPlot) => {
      if (!alive || !box.current) return;
      const width = Math.max(300, box.current.clientWidth);
      plot = new uPlot(options(uPlot, { data, series, height, yLabel, stacked, width }), stacked ? stack(data) : data, box.current);
      observer = new ResizeObserver(() => box.current && plot.setSize({ width: Math.max(300, box.current.clientWidth), height }));
      observer.observe(box.current);
    });
    return () => {
      alive = false;
      if (observer) observer.disconnect();
      if (plot) plot.destroy();
    };
  }, [data, series, height, stacked]);
  return html`<div class="chart" ref=${box} data-testid=${testId}></div>`;
}
