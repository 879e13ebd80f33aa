import { html } from 'htm/preact';
import { useMemo } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { useLocation } from '../lib/router.js';
import { boundsOf, rangeOf } from '../lib/time-range.js';
import { useFittedRange } from '../lib/fitted-range.js';
import { useData } from '../lib/use-data.js';
import { formatDecimal, formatNumber, formatPercent, formatTime } from '../lib/format.js';
import { TimeRangePicker } from '../components/time-range-picker.js';
import { FilterChips } from '../components/filter-chips.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';

// Release health (docs/dashboard.md, "Releases"): per release, the sessions the SDK sent that
// started in the range, as GET /releases/health reads them (docs/api.md#release-health),
// newest release first as the API lists them.

/**
 * A crash-free share, rounded down to what formatPercent shows (a release with a crash never
 * reads 100%); the epsilon keeps binary fractions such as 0.29 from losing a step.
 * @param {number | null} share
 */
const crashFree = (share) => (share === null ? '—' : formatPercent(Math.floor(share * 10_000 + 1e-6) / 10_000));

/**
 * The change of crash-free sessions from the release before, in percentage points.
 * @param {{ r: { crash_free_change: number | null }, previous: { release: string } | undefined }} props
 */
function Change({ r, previous }) {
  if (r.crash_free_change === null || !previous) return html`<span class="muted">—</span>`;
  const points = Math.round(r.crash_free_change * 10_000) / 100;
  const cls = points < 0 ? 'error-text' : points > 0 ? 'ok-text' : 'muted';
  const sign = points > 0 ? '+' : points < 0 ? '−' : '±';
  return html`<span class=${cls} title=${`crash-free sessions against release ${previous.release}`} data-testid="release-change">${sign}${formatDecimal(Math.abs(points), 2)} pp</span>`;
}

export function ReleasesPage({ project }) {
  const { query } = useLocation();
  const rangeKey = ['range', 'from', 'to', 'environment'].map((k) => query.get(k)).join('|');
  const bounds = useMemo(() => boundsOf(rangeOf(query)), [rangeKey]);
  const environment = query.get('environment') || undefined;
  const healthIn = (/** @type {{ from: number, to: number }} */ b) => api(projectApi(project.id, '/releases/health'), { query: { ...b, environment } });
  const { data, error, loading } = useData(() => healthIn(bounds), `${project.id}|${rangeKey}`);
  const widening = useFittedRange(query, project.id, data?.releases.length === 0, async (b) => (await healthIn(b)).releases.length > 0);
  const releases = data?.releases ?? [];
  const sessions = releases.reduce((n, r) => n + r.sessions, 0);
  const crashed = releases.reduce((n, r) => n + r.crashed, 0);
  return html`
    <div class="page-head">
      <h1>Releases</h1>
      <div class="head-actions"><${TimeRangePicker} /></div>
    </div>
    <${FilterChips} tab="releases" />
    ${error && html`<${ErrorBox} error=${error} />`}
    ${((loading && !data) || widening) && html`<${Loading} />`}
    ${
      data &&
      releases.length === 0 &&
      !widening &&
      html`<${Empty}><span data-testid="releases-empty">No sessions with a release started in this time range. The SDK sends them once a release is set (docs/sdk.md, "Release health").</span></${Empty}>`
    }
    ${
      releases.length > 0 &&
      html`
      <div class="stats">
        <div class="stat"><span class="stat-label">Releases</span><span class="stat-value">${formatNumber(releases.length)}</span></div>
        <div class="stat"><span class="stat-label">Sessions</span><span class="stat-value">${formatNumber(sessions)}</span></div>
        <div class="stat"><span class="stat-label">Crash-free sessions</span><span class="stat-value" data-testid="releases-crash-free">${crashFree(1 - crashed / sessions)}</span></div>
      </div>
      <section class="card">
        <h2>By release, newest first</h2>
        <div class="table-wrap"><table class="table" data-testid="releases-table">
          <thead>
            <tr>
              <th>Release</th><th>First seen</th><th class="num">Sessions</th><th class="num">Crashed</th><th class="num">Errored</th><th class="num">Users</th>
              <th class="num">Crash-free sessions</th><th class="num">Crash-free users</th><th class="num">Adoption</th><th class="num">Change</th>
            </tr>
          </thead>
          <tbody>
            ${releases.map(
              (r, i) => html`<tr key=${r.release} data-testid="release-row" data-release=${r.release}>
                <td class="mono message">${r.release}</td>
                <td class="nowrap">${formatTime(r.first_seen, { seconds: false })}</td>
                <td class="num">${formatNumber(r.sessions)}</td>
                <td class="num">${formatNumber(r.crashed)}</td>
                <td class="num">${formatNumber(r.errored)}</td>
                <td class="num">${formatNumber(r.users)}</td>
                <td class="num" data-testid="crash-free-sessions">${crashFree(r.crash_free_sessions)}</td>
                <td class="num" data-testid="crash-free-users">${crashFree(r.crash_free_users)}</td>
                <td class="num" data-testid="adoption">${formatPercent(r.adoption)}</td>
                <td class="num"><${Change} r=${r} previous=${releases[i + 1]} /></td>
              </tr>`,
            )}
          </tbody>
        </table></div>
      </section>
    `
    }
  `;
}
