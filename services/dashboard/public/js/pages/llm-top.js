import { html } from 'htm/preact';
import { api, projectApi } from '../lib/api.js';
import { Link, setQuery } from '../lib/router.js';
import { projectHref } from '../lib/view-state.js';
import { useData } from '../lib/use-data.js';
import { formatCost, formatNumber, formatTime } from '../lib/format.js';
import { ErrorBox } from '../components/status.js';
import { CallCost } from './llm-conversation.js';
import { focusCalls } from './llm-explore.js';

// The overview's top five of the range: the most expensive calls and the users who spent the
// most (metadata enduser.id), by effective cost.

/** @typedef {{ from: number, to: number }} Bounds */

/** Filters the calls to one user's and brings the call list into view. @param {string} user */
function showCallsOf(user) {
  focusCalls();
  setQuery({ metadata: `enduser.id:${user}` }, { replace: false });
}

/** @param {{ projectId: string, bounds: Bounds, filters: Record<string, string | undefined>, boundsKey: string }} props */
export function TopSpenders({ projectId, bounds, filters, boundsKey }) {
  const calls = useData(() => api(projectApi(projectId, '/llm-calls'), { query: { ...bounds, ...filters, sort: 'cost', limit: 5 } }), `top-calls|${boundsKey}`);
  const users = useData(
    () => api(projectApi(projectId, '/llm-calls/by-metadata'), { query: { ...bounds, ...filters, key: 'enduser.id', sort: 'cost', limit: 6 } }),
    `top-users|${boundsKey}`,
  );
  const named = (users.data?.values || []).filter((u) => u.value !== null).slice(0, 5);
  return html`<div class="grid-2">
    <section class="card" data-testid="llm-top-calls">
      <h2>Most expensive calls</h2>
      ${calls.error && html`<${ErrorBox} error=${calls.error} />`}
      ${
        calls.data &&
        html`<div class="table-wrap"><table class="table compact">
          <thead><tr><th>Time</th><th>Model</th><th>User</th><th class="num">Tokens</th><th class="num">Cost</th></tr></thead>
          <tbody>
            ${calls.data.calls.map(
              (c) => html`<tr key=${c.event_id} data-testid="llm-top-call">
                <td class="nowrap mono">${formatTime(c.timestamp)}</td>
                <td>${c.model}</td>
                <td>${typeof c.metadata?.['enduser.id'] === 'string' ? c.metadata['enduser.id'] : html`<span class="muted">—</span>`}</td>
                <td class="num">${formatNumber(c.input_tokens + c.output_tokens)}</td>
                <td class="num"><${CallCost} call=${c} /></td>
              </tr>`,
            )}
          </tbody>
        </table></div>
        <button type="button" class="link-button" onClick=${() => setQuery({ sort: 'cost', order: null }, { replace: false })}>All calls by cost</button>`
      }
    </section>
    <section class="card" data-testid="llm-top-users">
      <h2>Top users by cost</h2>
      ${users.error && html`<${ErrorBox} error=${users.error} />`}
      ${users.data && named.length === 0 && html`<p class="muted">No call in this range names its user (enduser.id, docs/otlp.md).</p>`}
      ${
        named.length > 0 &&
        html`<div class="table-wrap"><table class="table compact">
          <thead><tr><th>User</th><th class="num">Calls</th><th class="num">Tokens</th><th class="num">Cost</th></tr></thead>
          <tbody>
            ${named.map(
              (u) => html`<tr key=${u.value} data-testid="llm-top-user">
                <td>
                  <button type="button" class="link-button" title="Show these calls" data-testid="llm-top-user-calls" onClick=${() => showCallsOf(u.value)}>${u.value}</button>${' '}
                  <${Link} href=${projectHref(projectId, `llm/users/${encodeURIComponent(u.value)}`)} class="muted small" data-testid="llm-user-link">page</${Link}>
                </td>
                <td class="num">${formatNumber(u.calls)}</td>
                <td class="num">${formatNumber(u.input_tokens + u.output_tokens)}</td>
                <td class="num">${formatCost(u.cost_usd)}</td>
              </tr>`,
            )}
          </tbody>
        </table></div>`
      }
    </section>
  </div>`;
}
