import { html } from 'htm/preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, projectApi, queryString } from '../lib/api.js';
import { setQuery, useLocation } from '../lib/router.js';
import { boundsOf, rangeOf, rangeParams } from '../lib/time-range.js';
import { useFittedRange } from '../lib/fitted-range.js';
import { useData, useInterval } from '../lib/use-data.js';
import { recall, remember } from '../lib/page-cache.js';
import { formatNumber, zoneLabel } from '../lib/format.js';
import { addTerm, fieldTerm, withRange } from '../lib/search-text.js';
import { filtersOfTab } from '../lib/view-state.js';
import { ColumnChooser, columnsOf } from '../components/column-chooser.js';
import { Facets } from '../components/facets.js';
import { FilterChips } from '../components/filter-chips.js';
import { SearchBar } from '../components/search-bar.js';
import { TimeChart } from '../components/time-chart.js';
import { TimeRangePicker } from '../components/time-range-picker.js';
import { ErrorBox, Empty } from '../components/status.js';
import { LogRow } from './log-row.js';

// The logs explorer. Everything it shows is in the URL: the search (q, docs/dashboard.md),
// the service and environment filters carried from page to page, and the time range.
// A histogram of the matching logs by level (drag or click to zoom), facets with counts
// (click to filter in or out), the list newest first (the next page when its end scrolls
// into view), columns for metadata keys (cols), and a live tail that marks new rows, counts
// them and can pause.

const LEVELS = ['debug', 'info', 'warn', 'error'];
const LEVEL_COLORS = { debug: '#94a3b8', info: '#3b82f6', warn: '#f59e0b', error: '#ef4444' };
/** Filters kept as their own URL parameters (the API's), shown as removable chips. */
const PARAM_FILTERS = [
  ['service', 'service'],
  ['environment', 'env'],
  ['release', 'release'],
  ['level', 'level'],
  ['trace_id', 'trace'],
];
/** The ones only this page applies (service and environment are carried: view-state.js). */
const OWN_FILTERS = PARAM_FILTERS.filter(([k]) => !filtersOfTab('logs').some(([f]) => f === k));
const PAGE_SIZE = 100;
const MAX_ROWS = 5000;
const TAIL_MS = 2000;
const BUCKETS = 60;

// By time only: Array.sort is stable, so logs of one millisecond keep the server's order
// (timestamp, then event id as ClickHouse orders UUIDs, which is not their text's order).
const byNewest = (a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0);

/** The query parameters of the logs reads, from the page's URL. @param {URLSearchParams} query */
function filtersOf(query) {
  const out = /** @type {Record<string, string | undefined>} */ ({ q: query.get('q') || undefined });
  for (const [k] of PARAM_FILTERS) out[k] = query.get(k) || undefined;
  return out;
}

function Volume({ data, onZoom }) {
  const chart = useMemo(() => {
    const xs = Array.from({ length: data.buckets }, (_, i) => (data.from + i * data.step_ms) / 1000);
    return { data: [xs, ...LEVELS.map((l) => data.levels[l])], series: LEVELS.map((l) => ({ label: l, color: LEVEL_COLORS[l] })) };
  }, [data]);
  const total = LEVELS.reduce((s, l) => s + data.levels[l].reduce((a, b) => a + b, 0), 0);
  return html`
    <section class="card volume" data-testid="log-volume">
      <div class="row spread">
        <h2>${formatNumber(total)} matching logs</h2>
        <span class="muted small">Drag across the chart or click a bar to zoom in</span>
      </div>
      <${TimeChart} data=${chart.data} series=${chart.series} stacked=${true} height=${140} testId="log-volume-chart" onZoom=${onZoom} />
    </section>
  `;
}

export function LogsPage({ project }) {
  const { query } = useLocation();
  const range = rangeOf(query);
  const filters = filtersOf(query);
  const columns = columnsOf(query);
  // The columns shown do not change what is read.
  const readQuery = new URLSearchParams(query);
  readQuery.delete('cols');
  const filterKey = `${project.id}?${readQuery.toString()}`;
  const cacheKey = `logs|${location.pathname}${location.search}`;
  const restored = useRef(/** @type {{ rows: any[], cursor: string | null, terms: string[] } | undefined} */ (recall(cacheKey)));
  const [rows, setRows] = useState(/** @type {any[]} */ (restored.current?.rows ?? []));
  const [cursor, setCursor] = useState(/** @type {string | null} */ (restored.current?.cursor ?? null));
  const [terms, setTerms] = useState(/** @type {string[]} */ (restored.current?.terms ?? []));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {unknown} */ (null));
  const [openId, setOpenId] = useState(/** @type {string | null} */ (null));
  const [tail, setTail] = useState(false);
  const [paused, setPaused] = useState(false);
  const [pending, setPending] = useState(/** @type {any[]} */ ([]));
  const [fresh, setFresh] = useState(/** @type {Set<string>} */ (new Set()));
  const sentinel = useRef(/** @type {HTMLDivElement | null} */ (null));
  const gen = useRef(0);
  const bounds = useRef(boundsOf(range));

  // What the list shows, kept for Back (page-cache.js).
  useEffect(() => {
    if (rows.length > 0) remember(cacheKey, { rows, cursor, terms });
  }, [rows, cursor, terms]);

  const loadPage = async (after) => {
    const mine = gen.current;
    setBusy(true);
    try {
      const r = await api(projectApi(project.id, '/logs'), { query: { ...filters, ...bounds.current, cursor: after, limit: PAGE_SIZE } });
      if (mine !== gen.current) return;
      setRows((prev) => (after ? [...prev, ...r.logs] : r.logs).slice(0, MAX_ROWS));
      setCursor(r.next_cursor);
      setTerms(r.terms || []);
      setError(null);
    } catch (err) {
      if (mine === gen.current) setError(err);
    } finally {
      if (mine === gen.current) setBusy(false);
    }
  };

  // A new search, filter or range: start over from the newest row (unless Back brought this list).
  useEffect(() => {
    gen.current++;
    bounds.current = boundsOf(range);
    if (restored.current) {
      restored.current = undefined;
      return;
    }
    setRows([]);
    setCursor(null);
    setOpenId(null);
    setFresh(new Set());
    setPending([]);
    void loadPage(undefined);
  }, [filterKey]);

  const volume = useData(() => api(projectApi(project.id, '/logs/volume'), { query: { ...filters, ...bounds.current, buckets: BUCKETS } }), `volume|${filterKey}`);
  const facets = useData(() => api(projectApi(project.id, '/logs/facets'), { query: { ...filters, ...bounds.current } }), `facets|${filterKey}`);
  const noLogs = volume.data !== undefined && LEVELS.every((l) => volume.data.levels[l].every((n) => n === 0));
  const widening = useFittedRange(
    query,
    project.id,
    noLogs,
    async (b) => (await api(projectApi(project.id, '/logs'), { query: { ...filters, ...b, limit: 1 } })).logs.length > 0,
  );

  // Infinite scroll: fetch the next page when the end of the list becomes visible.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !cursor) return undefined;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !busy) void loadPage(cursor);
    });
    io.observe(el);
    return () => io.disconnect();
  }, [cursor, busy]);

  // Live tail: the logs newer than the newest shown, every 2 s; marked and counted as new.
  // Paused, they wait (counted) until Resume.
  useInterval(
    async () => {
      const mine = gen.current;
      const now = boundsOf({ kind: 'relative', id: '15m', ms: 15 * 60_000 });
      const newest = rows[0]?.timestamp ? Date.parse(rows[0].timestamp) : now.from;
      try {
        const r = await api(projectApi(project.id, '/logs'), { query: { ...filters, from: Math.max(now.from, newest), to: now.to, limit: PAGE_SIZE } });
        if (mine !== gen.current) return;
        const seen = new Set([...rows, ...pending].map((l) => l.event_id));
        const arrived = r.logs.filter((l) => !seen.has(l.event_id));
        if (arrived.length === 0) return;
        if (paused) setPending((p) => [...arrived, ...p]);
        else showNew(arrived);
      } catch (err) {
        setError(err);
      }
    },
    TAIL_MS,
    tail,
  );
  const showNew = (/** @type {any[]} */ arrived) => {
    setRows((prev) => [...arrived, ...prev].sort(byNewest).slice(0, MAX_ROWS));
    setFresh((f) => new Set([...f, ...arrived.map((l) => l.event_id)]));
  };
  const resume = () => {
    setPaused(false);
    if (pending.length) showNew(pending);
    setPending([]);
  };
  const toggleTail = (/** @type {boolean} */ on) => {
    setTail(on);
    setPaused(false);
    setPending([]);
    setFresh(new Set());
  };

  const search = (/** @type {string} */ q, /** @type {string | null | undefined} */ savedRange) =>
    setQuery({ q, ...(savedRange ? rangeParams({ kind: 'relative', id: savedRange, ms: 0 }) : {}) }, { replace: false });
  // Service and environment are filters of the whole project view (they follow to the other
  // pages); the rest, and every "filter out", edit the search.
  const filter = (/** @type {string} */ name, /** @type {string} */ value, /** @type {boolean} */ exclude) => {
    if (!exclude && (name === 'service' || name === 'environment')) return setQuery({ [name]: value }, { replace: false });
    if (name.startsWith('metadata.') && /[\s:()"]/.test(name)) return;
    setQuery({ q: addTerm(query.get('q') || '', fieldTerm(name, value, exclude)) }, { replace: false });
  };
  // j/k (or ↓/↑) move through the rows, Enter opens or closes one, Esc closes it (not while typing).
  // One listener reads the latest rows and choices from a ref: a listener re-registered after each
  // render would, for a key pressed before the effect ran, still see the previous row.
  const [activeRow, setActiveRow] = useState(-1);
  useEffect(() => setActiveRow(-1), [filterKey]);
  const keys = useRef({ rows, activeRow, openId });
  keys.current = { rows, activeRow, openId };
  useEffect(() => {
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      const { rows, activeRow, openId } = keys.current;
      const t = e.target;
      if (e.ctrlKey || e.metaKey || e.altKey || (t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName)))) return;
      if (e.key === 'Escape') {
        if (openId) setOpenId(null);
        return;
      }
      // A button or a link keeps its own keys.
      if (t instanceof HTMLElement && ['BUTTON', 'A', 'SUMMARY'].includes(t.tagName)) return;
      const step = e.key === 'j' || e.key === 'ArrowDown' ? 1 : e.key === 'k' || e.key === 'ArrowUp' ? -1 : 0;
      if (step && rows.length > 0) {
        e.preventDefault();
        const i = Math.max(0, Math.min(rows.length - 1, activeRow + step));
        keys.current = { ...keys.current, activeRow: i }; // a second key before the next render moves on from here
        setActiveRow(i);
        /** @type {HTMLElement | null} */ (document.querySelector(`[data-event="${CSS.escape(rows[i].event_id)}"]`))?.focus();
      } else if (e.key === 'Enter' && rows[activeRow] && !(t instanceof HTMLElement && t.matches('[data-testid=log-row]'))) {
        setOpenId(openId === rows[activeRow].event_id ? null : rows[activeRow].event_id);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  const filterRange = (/** @type {string} */ key, /** @type {{ from: number | null, to: number | null }} */ r, /** @type {boolean} */ exclude) =>
    setQuery({ q: withRange(query.get('q') || '', key, r, exclude) }, { replace: false });
  const loadRanges = (/** @type {string} */ key) => api(projectApi(project.id, '/logs/facets/ranges'), { query: { ...filters, ...bounds.current, key } });
  const setColumns = (/** @type {string[]} */ cols) => setQuery({ cols }, { replace: false });
  const zoom = (/** @type {number} */ from, /** @type {number} */ to) => setQuery(rangeParams({ kind: 'absolute', from, to }), { replace: false });

  return html`
    <div class="page-head">
      <h1>Logs</h1>
      <div class="head-actions">
        <div class="tail-controls">
          <label class="tail-toggle"><input type="checkbox" data-testid="live-tail" checked=${tail} onChange=${(e) => toggleTail(e.currentTarget.checked)} /> Live tail</label>
          ${tail && html`<button type="button" class="btn btn-small" data-testid="tail-pause" onClick=${() => (paused ? resume() : setPaused(true))}>${paused ? 'Resume' : 'Pause'}</button>`}
          ${
            tail &&
            html`<span class="tail-status small" data-testid="tail-status" role="status">${
              paused ? `Paused · ${formatNumber(pending.length)} new waiting` : `${formatNumber(fresh.size)} new`
            }</span>`
          }
        </div>
        <${ColumnChooser} keys=${(facets.data?.metadata ?? []).map((m) => m.key)} columns=${columns} onChange=${setColumns} />
        <details class="menu" data-testid="export-menu">
          <summary class="btn btn-small">Export</summary>
          <div class="menu-body">
            <p class="small muted">The matching logs, newest first (at most 100,000)</p>
            ${['csv', 'ndjson'].map(
              (format) =>
                html`<a class="btn btn-small" data-testid=${`export-${format}`} download
                  href=${projectApi(project.id, '/logs/export') + queryString({ ...filters, ...boundsOf(range), format })}>${format.toUpperCase()}</a> `,
            )}
          </div>
        </details>
        <${TimeRangePicker} />
      </div>
    </div>
    <${SearchBar} projectId=${project.id} value=${query.get('q') || ''} onSearch=${search} range=${range.kind === 'relative' ? range.id : null} />
    <${FilterChips} tab="logs" own=${OWN_FILTERS} />
    ${volume.error && html`<${ErrorBox} error=${volume.error} />`}
    ${volume.data && html`<${Volume} data=${volume.data} onZoom=${zoom} />`}
    <div class="explorer">
      ${facets.data ? html`<${Facets} facets=${facets.data} onFilter=${filter} reloadKey=${filterKey} loadRanges=${loadRanges} onRange=${filterRange} />` : html`<aside class="facets muted small">${facets.error ? 'Facets unavailable' : 'Loading facets…'}</aside>`}
      <div class="results">
        ${error && html`<${ErrorBox} error=${error} />`}
        ${
          rows.length === 0 && !busy && !error && !widening
            ? html`<${Empty}>No logs match in this time range. Data appears a few seconds after it is sent.</${Empty}>`
            : html`<div class="table-wrap"><table class="table logs-table" data-testid="logs-table">
              <thead><tr><th>Time <span class="muted small">(${zoneLabel()})</span></th><th>Level</th><th>Service</th><th>Message</th>${columns.map(
                (c) => html`<th key=${c} class="meta-col" data-testid="column-head"><span class="mono">${c}</span>
                  <button type="button" class="chip-x" aria-label=${`Remove column ${c}`} title="Remove column" onClick=${() => setColumns(columns.filter((k) => k !== c))}>×</button></th>`,
              )}</tr></thead>
              <tbody>
                ${rows.map(
                  (l, i) =>
                    html`<${LogRow} key=${l.event_id} log=${l} projectId=${project.id} terms=${terms} fresh=${fresh.has(l.event_id)} active=${i === activeRow}
                      columns=${columns} open=${openId === l.event_id} onToggle=${() => (setActiveRow(i), setOpenId(openId === l.event_id ? null : l.event_id))} onFilter=${filter} />`,
                )}
              </tbody>
            </table></div>`
        }
        <div ref=${sentinel} class="sentinel" data-testid="logs-end">
          ${busy ? 'Loading…' : cursor ? 'Scroll for more' : rows.length > 0 ? `${formatNumber(rows.length)} logs, end of range` : ''}
        </div>
      </div>
    </div>
  `;
}
