import { html } from 'htm/preact';
import { useEffect, useRef } from 'preact/hooks';

// Time series with uPlot, loaded only on pages that chart something.
// data: [xs (unix seconds), ...ys]; series: [{ label, value? }] for each y.

export const PALETTE = ['#3b82f6', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#06b6d4', '#ec4899', '#84cc16', '#64748b', '#f97316'];

let uPlotModule;
const loadUPlot = () => (uPlotModule ??= import('uplot').then((m) => m.default));

export function TimeChart({ data, series, height = 220, yLabel, bars = false, testId }) {
  const box = useRef(null);
  useEffect(() => {
    let plot;
    let alive = true;
    let observer;
    loadUPlot().then((uPlot) => {
      if (!alive || !box.current) return;
      const opts = {
        width: Math.max(300, box.current.clientWidth),
        height,
        legend: { live: true },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        axes: [{}, { label: yLabel, size: 60 }],
        series: [
          {},
          ...series.map((s, i) => ({
            label: s.label,
            stroke: PALETTE[i % PALETTE.length],
            fill: bars ? `${PALETTE[i % PALETTE.length]}55` : undefined,
            width: 2,
            points: { show: data[0].length < 60 },
            paths: bars && uPlot.paths.bars ? uPlot.paths.bars({ size: [0.8, 40] }) : undefined,
            value: s.value,
          })),
        ],
      };
      plot = new uPlot(opts, data, box.current);
      observer = new ResizeObserver(() => box.current && plot.setSize({ width: Math.max(300, box.current.clientWidth), height }));
      observer.observe(box.current);
    });
    return () => {
      alive = false;
      if (observer) observer.disconnect();
      if (plot) plot.destroy();
    };
  }, [data, series, height, bars]);
  return html`<div class="chart" ref=${box} data-testid=${testId}></div>`;
}
