import { html } from 'htm/preact';
import { useEffect, useRef } from 'preact/hooks';
import { currentZone, formatAxisTime, formatDecimal, formatNumber, formatTime, zoneLabel } from '../lib/format.js';
import { useColorScheme } from '../lib/theme.js';

// Time series with uPlot, loaded only on pages that chart something.
// data: [xs (unix seconds), ...ys]; series: [{ label, color? }] for each y. `stacked` draws
// stacked bars (each series' bar sits on the ones before it; the legend shows its own value).
// Times are drawn in the chosen zone in the one format (format.js), numbers in the browser's
// locale, colours from the page's (light or dark) theme. With `onZoom`, dragging across the
// chart or clicking a bar asks for that span of time.

export const PALETTE = ['#3b82f6', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#06b6d4', '#ec4899', '#84cc16', '#64748b', '#f97316'];

/** @type {Promise<any> | undefined} */
let uPlotModule;
const loadUPlot = () => (uPlotModule ??= import('uplot').then((m) => m.default));

/** Cumulative sums, drawn tallest first so each series shows as its own band. @param {number[][]} data */
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

const cssVar = (/** @type {string} */ name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/**
 * The value axis as wide as its longest label ("1,000,000" was cut to ",00,000" in a fixed
 * 60 px): measured in the axis's font, plus its ticks and gap. uPlot asks again after laying
 * out (cycleNum > 1), when the size found first stands.
 * @param {any} u @param {string[] | null} values @param {number} axisIdx @param {number} cycleNum
 */
function valueAxisSize(u, values, axisIdx, cycleNum) {
  const axis = u.axes[axisIdx];
  if (cycleNum > 1) return axis._size;
  const longest = (values ?? []).reduce((a, v) => (String(v).length > a.length ? String(v) : a), '');
  u.ctx.font = axis.font[0];
  return Math.ceil(axis.ticks.size + axis.gap + u.ctx.measureText(longest).width / devicePixelRatio + 8);
}

/** Fewer decimals as values grow; whole numbers without any. @param {number} v */
const axisNumber = (v) => (Number.isInteger(v) ? formatNumber(v) : formatDecimal(v, Math.abs(v) < 0.01 ? 4 : Math.abs(v) < 1 ? 2 : 1));

function options(uPlot, { data, series, height, yLabel, stacked, width, onZoom, valueFormat, spanGaps }) {
  const ordered = stacked ? series.map((s, i) => ({ ...s, index: i })).reverse() : series.map((s, i) => ({ ...s, index: i }));
  const text = cssVar('--muted') || '#6b7280';
  const grid = cssVar('--grid') || '#e5e7eb';
  const step = data[0].length > 1 ? (data[0][1] - data[0][0]) * 1000 : 60_000;
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const fmt = valueFormat || axisNumber;
  // A drag ends with a click on the same spot: that click is the drag's, not a bucket's.
  let dragged = false;
  return {
    width,
    height,
    legend: { live: true },
    cursor: { drag: { x: Boolean(onZoom), y: false, setScale: false } },
    select: { show: Boolean(onZoom) },
    // Tick positions in the chosen zone (uPlot places them in the zone of the dates it is given).
    tzDate: (/** @type {number} */ ts) => (currentZone() === 'utc' ? uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC') : new Date(ts * 1000)),
    scales: { x: { time: true } },
    axes: [
      {
        ...axis,
        // Room for "MM-DD HH:mm" between ticks.
        space: 90,
        values: (/** @type {unknown} */ _u, /** @type {number[]} */ splits, /** @type {number} */ _i, /** @type {number} */ _space, /** @type {number} */ incr) =>
          splits.map((s) => formatAxisTime(s * 1000, Math.max(step, incr * 1000))),
      },
      { ...axis, label: yLabel, size: valueAxisSize, values: (/** @type {unknown} */ _u, /** @type {number[]} */ splits) => splits.map(fmt) },
    ],
    series: [
      {
        label: `Time (${zoneLabel()})`,
        value: (/** @type {unknown} */ _u, /** @type {number | null} */ v) => (v == null ? '--' : formatTime(v * 1000, { seconds: false })),
      },
      ...ordered.map((s) => {
        const color = s.color || PALETTE[s.index % PALETTE.length];
        return {
          label: s.label,
          stroke: color,
          fill: stacked ? color : undefined,
          width: stacked ? 0 : 2,
          points: { show: !stacked && (spanGaps || data[0].length < 60) },
          // Sparse series (metrics exported every few steps): a line across the empty steps.
          spanGaps: Boolean(spanGaps),
          paths: stacked ? uPlot.paths.bars({ size: [0.9, 60] }) : undefined,
          // Stacked: the legend shows the series' own value, not the running sum.
          value: (/** @type {unknown} */ _u, /** @type {number | null} */ v, /** @type {number} */ _si, /** @type {number | null} */ idx) =>
            idx == null ? '--' : fmt(stacked ? data[s.index + 1][idx] || 0 : (v ?? 0)),
        };
      }),
    ],
    hooks: onZoom
      ? {
          setSelect: [
            (/** @type {any} */ u) => {
              if (u.select.width < 4) return;
              dragged = true;
              const from = u.posToVal(u.select.left, 'x') * 1000;
              const to = u.posToVal(u.select.left + u.select.width, 'x') * 1000;
              u.setSelect({ left: 0, width: 0, top: 0, height: 0 }, false);
              onZoom(Math.floor(from), Math.ceil(to));
            },
          ],
          ready: [
            (/** @type {any} */ u) => {
              // A click (no drag) on a bucket zooms to that bucket.
              u.over.addEventListener('click', () => {
                const i = u.cursor.idx;
                if (dragged || i == null) {
                  dragged = false;
                  return;
                }
                const from = data[0][i] * 1000;
                onZoom(from, from + step);
              });
            },
          ],
        }
      : {},
  };
}

/**
 * @param {{ data: number[][], series: Array<{ label: string, color?: string }>, height?: number, yLabel?: string, stacked?: boolean, testId?: string,
 *   onZoom?: (fromMs: number, toMs: number) => void, valueFormat?: (v: number) => string, spanGaps?: boolean }} props
 */
export function TimeChart({ data, series, height = 220, yLabel, stacked = false, testId, onZoom, valueFormat, spanGaps = false }) {
  const box = useRef(/** @type {HTMLDivElement | null} */ (null));
  const zoom = useRef(onZoom);
  zoom.current = onZoom;
  const zone = currentZone();
  const scheme = useColorScheme();
  useEffect(() => {
    /** @type {any} */
    let plot;
    let alive = true;
    /** @type {ResizeObserver | undefined} */
    let observer;
    // The chart's width follows its box; on a phone it can be narrower than uPlot's default.
    const widthOf = (/** @type {HTMLElement} */ el) => Math.max(200, el.clientWidth);
    loadUPlot().then((uPlot) => {
      if (!alive || !box.current) return;
      const opts = options(uPlot, {
        data,
        series,
        height,
        yLabel,
        stacked,
        width: widthOf(box.current),
        onZoom: onZoom && ((a, b) => zoom.current?.(a, b)),
        valueFormat,
        spanGaps,
      });
      plot = new uPlot(opts, stacked ? stack(data) : data, box.current);
      observer = new ResizeObserver(() => box.current && plot.setSize({ width: widthOf(box.current), height }));
      observer.observe(box.current);
    });
    return () => {
      alive = false;
      if (observer) observer.disconnect();
      if (plot) plot.destroy();
    };
  }, [data, series, height, stacked, zone, scheme, Boolean(onZoom)]);
  return html`<div class=${onZoom ? 'chart zoomable' : 'chart'} ref=${box} data-testid=${testId}></div>`;
}
