import { html } from 'htm/preact';
import { api, projectApi } from '../lib/api.js';
import { setQuery } from '../lib/router.js';
import { useData } from '../lib/use-data.js';
import { formatCost, formatDecimal, formatNumber, formatTime } from '../lib/format.js';
import { ErrorBox, Empty, Loading } from '../components/status.js';
import { CallCost, Conversation, repeatedMessages } from './llm-conversation.js';

// LLM sessions: calls that share a session.id (else a gen_ai.conversation.id) in their
// metadata, listed by latest activity; one session opens to its calls in order, each as its
// conversation (docs/dashboard.md, "LLM usage"), read as one thread: a turn shows only the
// messages the turn before did not.

/** @typedef {{ from: number, to: number }} Bounds */

/** @param {{ projectId: string, bounds: Bounds, filters: Record<string, string | undefined>, boundsKey: string }} props */
export function SessionList({ projectId, bounds, filters, boundsKey }) {
  const { data, error } = useData(() => api(projectApi(projectId, '/llm-sessions'), { query: { ...bounds, ...filters, limit: 20 } }), `sessions|${boundsKey}`);
  if (data && data.sessions.length === 0) return null; // no call carries a session
  return html`<section class="card" data-testid="llm-sessions">
    <h2>Sessions</h2>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${
      data &&
      html`<div class="table-wrap"><table class="table compact">
        <thead><tr><th>Session</th><th>User</th><th class="num">Calls</th><th class="num">Tokens</th><th class="num">Cost</th><th>Scores</th><th>First</th><th>Last</th></tr></thead>
        <tbody>
          ${data.sessions.map(
            (s) => html`<tr key=${s.session} data-testid="llm-session-row">
              <td><button type="button" class="link-button" onClick=${() => setQuery({ session: s.session }, { replace: false })}>${s.session}</button></td>
              <td>${s.user ?? html`<span class="muted">—</span>`}</td>
              <td class="num">${formatNumber(s.calls)}</td>
              <td class="num">${formatNumber(s.input_tokens + s.output_tokens)}</td>
              <td class="num">${formatCost(s.cost_usd)}</td>
              <td class="small" data-testid="llm-session-scores">${
                s.scores?.length
                  ? s.scores.map((a) => `${a.name} ${a.average === null ? `×${formatNumber(a.count)}` : formatDecimal(a.average, 2)}`).join(' · ')
                  : html`<span class="muted">—</span>`
              }</td>
              <td class="nowrap mono">${formatTime(s.first_at)}</td>
              <td class="nowrap mono">${formatTime(s.last_at)}</td>
            </tr>`,
          )}
        </tbody>
      </table></div>`
    }
  </section>`;
}

/** @param {{ projectId: string, bounds: Bounds, session: string }} props */
export function SessionView({ projectId, bounds, session }) {
  const { data, error, loading } = useData(
    () => api(projectApi(projectId, '/llm-calls'), { query: { ...bounds, session, sort: 'time', order: 'asc', limit: 200 } }),
    `session|${projectId}|${bounds.from}|${bounds.to}|${session}`,
  );
  const calls = data?.calls || [];
  const cost = calls.reduce((n, c) => n + c.cost_usd, 0);
  const tokens = calls.reduce((n, c) => n + c.input_tokens + c.output_tokens, 0);
  return html`<section class="card" data-testid="llm-session">
    <div class="row spread">
      <h2>Session <code>${session}</code></h2>
      <button type="button" class="btn" onClick=${() => setQuery({ session: null }, { replace: false })}>Close</button>
    </div>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${loading && !data && html`<${Loading} />`}
    ${data && calls.length === 0 && html`<${Empty}>No calls of this session in this time range.</${Empty}>`}
    ${data && calls.length > 0 && html`<p class="muted" data-testid="llm-session-total">${`${formatNumber(calls.length)} calls in order · ${formatNumber(tokens)} tokens · ${formatCost(cost)}${data.next_cursor ? ' · the first 200 shown' : ''}`}</p>`}
    ${calls.map(
      (c, i) => html`<div class="session-call" key=${c.event_id} data-testid="llm-session-call">
        <h4>${i + 1}. ${formatTime(c.timestamp)} · ${c.operation} · <${CallCost} call=${c} /></h4>
        <${Conversation} call=${c} repeated=${repeatedMessages(calls[i - 1], c)} />
      </div>`,
    )}
  </section>`;
}
