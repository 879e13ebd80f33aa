import { html } from 'htm/preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { Link, setQuery, useLocation } from '../lib/router.js';
import { boundsOf } from '../lib/time-range.js';
import { useInterval } from '../lib/use-data.js';
import { formatTime } from '../lib/format.js';
import { Badge } from '../components/badges.js';
import { JsonView } from '../components/json-view.js';
import { TimeRangePicker } from '../components/time-range-picker.js';
import { ErrorBox, Empty } from '../components/status.js';

// Logs explorer: filters in the URL, newest first, the next page when the end of the
// list scrolls into view (cursor pagination), and an optional live tail (polling).

const LEVELS = ['debug', 'info', 'warn', 'error'];
const TEXT_FILTERS = [
  ['service', 'Service'],
  ['environment', 'Environment'],
  ['release', 'Release'],
  ['trace_id', 'Trace id'],
  ['q', 'Message contains'],
];
const PAGE_SIZE = 100;
const MAX_ROWS = 5000;
const TAIL_MS = 2000;

const byNewest = (a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : a.event_id < b.event_id ? 1 : -1);

function Filters({ query }) {
  const levels = (query.get('level') || '').split(',').filter(Boolean);
  const [draft, setDraft] = useState(() => Object.fromEntries(TEXT_FILTERS.map(([k]) => [k, query.get(k) || ''])));
  useEffect(() => setDraft(Object.fromEntries(TEXT_FILTERS.map(([k]) => [k, query.get(k) || '']))), [query.toString()]);
  const toggleLevel = (l) => setQuery({ level: levels.includes(l) ? levels.filter((x) => x !== l) : [...levels, l] });
  const apply = (e) => {
    e.preventDefault();
    setQuery(draft);
  };
  return html`
    <form class="filters" onSubmit=${apply} data-testid="log-filters">
      <fieldset class="levels">
        <legend class="sr-only">Levels</legend>
        ${LEVELS.map(
          (l) =>
            html`<label class="level-toggle"><input type="checkbox" name=${`level-${l}`} checked=${levels.includes(l)} onChange=${() => toggleLevel(l)} /> ${l}</label>`,
        )}
      </fieldset>
      ${TEXT_FILTERS.map(
        ([k, label]) => html`<label class="filter">${label}
          <input name=${k} value=${draft[k]} onInput=${(e) => setDraft({ ...draft, [k]: e.currentTarget.value })} />
        </label>`,
      )}
      <button class="btn" type="submit">Apply</button>
    </form>
  `;
}

function LogRow({ log, projectId, open, onToggle }) {
  return html`
    <tr class=${open ? 'log-row open' : 'log-row'} onClick=${onToggle} data-testid="log-row">
      <td class="nowrap mono">${formatTime(log.timestamp)}</td>
      <td><${Badge} value=${log.level} /></td>
      <td class="nowrap">${log.service}</td>
      <td class="message">${log.message}</td>
    </tr>
    ${
      open &&
      html`<tr class="log-detail">
      <td colspan="4">
        <dl class="fields">
          <dt>Environment</dt><dd>${log.environment}</dd>
          <dt>Release</dt><dd>${log.release || '—'}</dd>
          <dt>Context</dt><dd>${log.context || '—'}</dd>
          <dt>Request id</dt><dd>${log.request_id || '—'}</dd>
          <dt>Trace</dt>
          <dd>${log.trace_id ? html`<${Link} href=${`/projects/${encodeURIComponent(projectId)}/traces/${encodeURIComponent(log.trace_id)}`} data-testid="log-trace-link">${log.trace_id}</${Link}>` : '—'}</dd>
          <dt>Span</dt><dd>${log.span_id || '—'}</dd>
          <dt>Received</dt><dd>${formatTime(log.received_at)}</dd>
        </dl>
        <h4>Metadata</h4>
        <${JsonView} value=${log.metadata} />
      </td>
    </tr>`
    }
  `;
}

export function LogsPage({ project }) {
  const { query } = useLocation();
  const range = query.get('range') || '';
  const filterKey = `${project.id}?${query.toString()}`;
  const filters = {
    level: query.get('level') || undefined,
    ...Object.fromEntries(TEXT_FILTERS.map(([k]) => [k, query.get(k) || undefined])),
  };
  const [rows, setRows] = useState(/** @type {any[]} */ ([]));
  const [cursor, setCursor] = useState(/** @type {string | null} */ (null));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(/** @type {unknown} */ (null));
  const [tail, setTail] = useState(false);
  const [openId, setOpenId] = useState(/** @type {string | null} */ (null));
  const sentinel = useRef(/** @type {HTMLDivElement | null} */ (null));
  const gen = useRef(0);
  const bounds = useRef(boundsOf(range));

  const loadPage = async (after) => {
    const mine = gen.current;
    setBusy(true);
    try {
      const r = await api(projectApi(project.id, '/logs'), { query: { ...filters, ...bounds.current, cursor: after, limit: PAGE_SIZE } });
      if (mine !== gen.current) return;
      setRows((prev) => (after ? [...prev, ...r.logs] : r.logs).slice(0, MAX_ROWS));
      setCursor(r.next_cursor);
      setError(null);
    } catch (err) {
      if (mine === gen.current) setError(err);
    } finally {
      if (mine === gen.current) setBusy(false);
    }
  };

  // A new filter set: start over from the newest row.
  useEffect(() => {
    gen.current++;
    bounds.current = boundsOf(range);
    setRows([]);
    setCursor(null);
    setOpenId(null);
    void loadPage(undefined);
  }, [filterKey]);

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

  // Live tail: poll the newest page and merge rows not seen yet.
  useInterval(
    async () => {
      const mine = gen.current;
      const now = boundsOf(range);
      try {
        const r = await api(projectApi(project.id, '/logs'), { query: { ...filters, from: now.from, to: now.to, limit: PAGE_SIZE } });
        if (mine !== gen.current) return;
        setRows((prev) => {
          const seen = new Set(prev.map((l) => l.event_id));
          const fresh = r.logs.filter((l) => !seen.has(l.event_id));
          return fresh.length ? [...fresh, ...prev].sort(byNewest).slice(0, MAX_ROWS) : prev;
        });
      } catch (err) {
        setError(err);
      }
    },
    TAIL_MS,
    tail,
  );

  return html`
    <div class="page-head">
      <h1>Logs</h1>
      <div class="head-actions">
        <label class="tail-toggle"><input type="checkbox" data-testid="live-tail" checked=${tail} onChange=${(e) => setTail(e.currentTarget.checked)} /> Live tail</label>
        <${TimeRangePicker} value=${range} />
      </div>
    </div>
    <${Filters} query=${query} />
    ${error && html`<${ErrorBox} error=${error} />`}
    ${
      rows.length === 0 && !busy && !error
        ? html`<${Empty}>No logs match in this time range. Data appears a few seconds after it is sent.</${Empty}>`
        : html`<table class="table logs-table" data-testid="logs-table">
          <thead><tr><th>Time</th><th>Level</th><th>Service</th><th>Message</th></tr></thead>
          <tbody>
            ${rows.map(
              (l) =>
                html`<${LogRow} key=${l.event_id} log=${l} projectId=${project.id} open=${openId === l.event_id} onToggle=${() => setOpenId(openId === l.event_id ? null : l.event_id)} />`,
            )}
          </tbody>
        </table>`
    }
    <div ref=${sentinel} class="sentinel" data-testid="logs-end">
      ${busy ? 'Loading…' : cursor ? 'Scroll for more' : rows.length > 0 ? `${rows.length} logs, end of range` : ''}
    </div>
  `;
}
