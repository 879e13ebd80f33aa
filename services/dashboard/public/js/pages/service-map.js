import { html } from 'htm/preact';
import { api, projectApi } from '../lib/api.js';
import { Link, useLocation } from '../lib/router.js';
import { boundsOf } from '../lib/time-range.js';
import { useData } from '../lib/use-data.js';
import { formatDuration, formatNumber } from '../lib/format.js';
import { projectHref } from '../lib/view-state.js';
import { colorsOf } from '../lib/service-colors.js';
import { fieldTerm } from '../lib/search-text.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';

// The service map of the range (GET /service-map): which service calls which, from the
// spans' parent-child links, drawn left to right by call depth, and listed with calls per
// minute, errors and p95 per edge. The carried service filter keeps the edges it is on.

const COL = 190;
const ROW = 56;
const NODE_W = 150;
const NODE_H = 30;

/** Columns by call depth (a service called by nobody first; cycles stay where first placed). */
function layout(edges) {
  const services = [...new Set(edges.flatMap((e) => [e.caller, e.callee]))].sort();
  const callers = new Map(services.map((s) => [s, edges.filter((e) => e.callee === s && e.caller !== s).map((e) => e.caller)]));
  const depth = new Map();
  let frontier = services.filter((s) => callers.get(s).length === 0);
  if (frontier.length === 0) frontier = services.slice(0, 1);
  for (let d = 0; frontier.length > 0 && d < services.length; d++) {
    for (const s of frontier) depth.set(s, d);
    frontier = [...new Set(edges.filter((e) => frontier.includes(e.caller)).map((e) => e.callee))].filter((s) => !depth.has(s));
  }
  for (const s of services) if (!depth.has(s)) depth.set(s, 0);
  const columns = new Map();
  for (const s of services) columns.set(depth.get(s), [...(columns.get(depth.get(s)) ?? []), s]);
  const pos = new Map();
  for (const [d, list] of columns) list.forEach((s, i) => pos.set(s, { x: 10 + d * COL, y: 10 + i * ROW }));
  const width = 10 + Math.max(...[...columns.keys()]) * COL + NODE_W + 10;
  const height = 10 + Math.max(...[...columns.values()].map((l) => l.length)) * ROW;
  return { services, pos, width, height };
}

export function ServiceMap({ project, range, rangeKey }) {
  const { query } = useLocation();
  const { data, error } = useData(() => api(projectApi(project.id, '/service-map'), { query: boundsOf(range) }), `map|${rangeKey}`);
  if (error) return html`<${ErrorBox} error=${error} />`;
  if (!data) return html`<${Loading} />`;
  const only = (query.get('service') || '').toLowerCase();
  const edges = only ? data.edges.filter((e) => e.caller.toLowerCase() === only || e.callee.toLowerCase() === only) : data.edges;
  if (edges.length === 0) return html`<${Empty}>No calls between services in this time range${only ? ' for this service' : ''}.</${Empty}>`;
  const minutes = Math.max(1, (data.to - data.from) / 60_000);
  const { services, pos, width, height } = layout(edges);
  const color = colorsOf(services);
  const traces = (/** @type {string} */ service, /** @type {string} */ q = '') => projectHref(project.id, 'traces', { service, q: q || null, view: null });
  return html`
    <section class="card">
      <h2>Calls between services</h2>
      <div class="service-map-wrap">
        <svg class="service-map" data-testid="service-map" viewBox=${`0 0 ${width} ${height}`} width=${width} height=${height} role="img" aria-label="Service map">
          <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="map-arrow" /></marker></defs>
          ${edges.map((e) => {
            const a = pos.get(e.caller);
            const b = pos.get(e.callee);
            const back = b.x <= a.x;
            const x1 = a.x + NODE_W;
            const y1 = a.y + NODE_H / 2;
            const x2 = back ? b.x + NODE_W : b.x;
            const y2 = b.y + NODE_H / 2 + (back ? 6 : 0);
            const mid = back ? Math.max(x1, x2) + 40 : (x1 + x2) / 2;
            return html`<g class=${e.errors > 0 ? 'map-edge map-edge-error' : 'map-edge'} data-testid="map-edge">
              <title>${e.caller} → ${e.callee}: ${formatNumber(e.calls)} calls, ${formatNumber(e.errors)} failed, p95 ${formatDuration(e.p95_ms)}</title>
              <path d=${`M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`} marker-end="url(#arrow)" />
            </g>`;
          })}
          ${services.map((s) => {
            const p = pos.get(s);
            return html`<g class="map-node" data-testid="map-node">
              <rect x=${p.x} y=${p.y} width=${NODE_W} height=${NODE_H} rx="6" style=${{ stroke: color(s) }} />
              <circle cx=${p.x + 12} cy=${p.y + NODE_H / 2} r="5" style=${{ fill: color(s) }} />
              <text x=${p.x + 24} y=${p.y + NODE_H / 2 + 4}>${s.length > 18 ? `${s.slice(0, 17)}…` : s}</text>
            </g>`;
          })}
        </svg>
      </div>
    </section>
    <section class="card">
      <div class="table-wrap"><table class="table" data-testid="service-edges">
        <thead><tr><th>Caller</th><th>Callee</th><th class="num">Calls / min</th><th class="num">Failed</th><th class="num">p95</th></tr></thead>
        <tbody>
          ${edges.map(
            (e) => html`<tr data-testid="edge-row">
              <td><${Link} href=${traces(e.caller)}><span class="dot" style=${{ background: color(e.caller) }}></span> ${e.caller}</${Link}></td>
              <td>→ <${Link} href=${traces(e.callee)}><span class="dot" style=${{ background: color(e.callee) }}></span> ${e.callee}</${Link}></td>
              <td class="num">${formatNumber(Math.round((e.calls / minutes) * 100) / 100)}</td>
              <td class="num">${e.errors > 0 ? html`<${Link} class="error-text" href=${traces(e.callee, `${fieldTerm('service', e.callee)} status:error`)}>${formatNumber(e.errors)} (${formatNumber(Math.round((e.errors / e.calls) * 1000) / 10)} %)</${Link}>` : '0'}</td>
              <td class="num">${formatDuration(e.p95_ms)}</td>
            </tr>`,
          )}
        </tbody>
      </table></div>
      <p class="muted small">${formatNumber(edges.reduce((s, e) => s + e.calls, 0))} calls over ${formatNumber(Math.round(minutes))} minutes (by the calling span's start). An edge is a span whose parent span ran in another service.</p>
    </section>
  `;
}
