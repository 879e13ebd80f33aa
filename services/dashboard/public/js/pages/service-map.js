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
// spans' parent-child links, drawn on a circle (calls go every way, cycles too), and listed with calls per
// minute, errors and p95 per edge. The carried service filter keeps the edges it is on.

const NODE_H = 28;
const CHAR_W = 7;

/** The services on a circle (any graph, cycles too), each a box as wide as its name. */
function layout(edges) {
  const services = [...new Set(edges.flatMap((e) => [e.caller, e.callee]))].sort();
  const n = services.length;
  const widest = Math.max(...services.map((s) => Math.min(s.length, 18))) * CHAR_W + 34;
  const r = n === 1 ? 0 : Math.max(90, (n * (NODE_H + 14)) / Math.PI);
  const cx = r + widest / 2 + 10;
  const cy = r + NODE_H / 2 + 10;
  const pos = new Map(
    services.map((s, i) => {
      const a = (2 * Math.PI * i) / n - Math.PI / 2;
      return [s, { x: cx + r * Math.cos(a), y: cy + r * Math.sin(a), w: Math.min(s.length, 18) * CHAR_W + 34 }];
    }),
  );
  return { services, pos, width: 2 * cx, height: 2 * cy };
}

/** Where the line from a box's centre towards (dx, dy) leaves the box. */
const exitOf = (/** @type {{ x: number, y: number, w: number }} */ p, /** @type {number} */ dx, /** @type {number} */ dy) => {
  const len = Math.hypot(dx, dy) || 1;
  const t = Math.min(p.w / 2 / (Math.abs(dx / len) || 1e-9), NODE_H / 2 / (Math.abs(dy / len) || 1e-9)) + 3;
  return { x: p.x + (dx / len) * t, y: p.y + (dy / len) * t };
};

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
            if (!a || !b) return null; // every edge's ends are laid out; this satisfies the checker
            // Bent to its right, so calls both ways are two lines.
            const mx = (a.x + b.x) / 2 + (b.y - a.y) * 0.15;
            const my = (a.y + b.y) / 2 - (b.x - a.x) * 0.15;
            const from = exitOf(a, mx - a.x, my - a.y);
            const to = exitOf(b, mx - b.x, my - b.y);
            return html`<g class=${e.errors > 0 ? 'map-edge map-edge-error' : 'map-edge'} data-testid="map-edge">
              <title>${e.caller} → ${e.callee}: ${formatNumber(e.calls)} calls, ${formatNumber(e.errors)} failed, p95 ${formatDuration(e.p95_ms)}</title>
              <path d=${`M${from.x},${from.y} Q${mx},${my} ${to.x},${to.y}`} marker-end="url(#arrow)" />
            </g>`;
          })}
          ${services.map((s) => {
            const p = pos.get(s);
            if (!p) return null;
            return html`<g class="map-node" data-testid="map-node">
              <rect x=${p.x - p.w / 2} y=${p.y - NODE_H / 2} width=${p.w} height=${NODE_H} rx="6" style=${{ stroke: color(s) }} />
              <circle cx=${p.x - p.w / 2 + 12} cy=${p.y} r="5" style=${{ fill: color(s) }} />
              <text x=${p.x - p.w / 2 + 23} y=${p.y + 4}>${s.length > 18 ? `${s.slice(0, 17)}…` : s}</text>
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
