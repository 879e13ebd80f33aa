import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { Link } from '../lib/router.js';
import { formatTime } from '../lib/format.js';
import { projectHref } from '../lib/view-state.js';
import { fieldTerm } from '../lib/search-text.js';
import { Badge } from '../components/badges.js';
import { Highlight } from '../components/highlight.js';
import { JsonView } from '../components/json-view.js';
import { ErrorBox } from '../components/status.js';

// One log in the explorer's list: a line, which opens to its fields, metadata, links to its
// trace (and the trace's errors) and its request, and the lines logged around it.

const AROUND = 10;

function Surrounding({ projectId, log }) {
  const [sameService, setSameService] = useState(false);
  const [state, setState] = useState(/** @type {{ logs?: any[], error?: unknown, busy: boolean }} */ ({ busy: false }));
  const load = async (/** @type {boolean} */ same) => {
    setState({ busy: true });
    try {
      const r = await api(projectApi(projectId, '/logs/surrounding'), {
        query: { event_id: log.event_id, timestamp: log.timestamp, before: AROUND, after: AROUND, service: same ? log.service : undefined },
      });
      setState({ logs: r.logs, busy: false });
    } catch (error) {
      setState({ error, busy: false });
    }
  };
  if (!state.logs && !state.busy && !state.error)
    return html`<button type="button" class="btn btn-small" data-testid="show-surrounding" onClick=${() => load(sameService)}>Show surrounding lines</button>`;
  return html`
    <div class="surrounding" data-testid="surrounding">
      <div class="row">
        <h4>${AROUND} lines before and after</h4>
        <label class="inline-check"><input type="checkbox" checked=${sameService} onChange=${(e) => {
          setSameService(e.currentTarget.checked);
          void load(e.currentTarget.checked);
        }} /> only ${log.service}</label>
      </div>
      ${state.error && html`<${ErrorBox} error=${state.error} />`}
      ${state.busy && html`<span class="muted small">Loading…</span>`}
      ${
        state.logs &&
        html`<div class="table-wrap"><table class="table compact">
          <tbody>
            ${state.logs.map(
              (
                l,
              ) => html`<tr key=${l.event_id} class=${l.event_id === log.event_id ? 'anchor' : ''} data-testid=${l.event_id === log.event_id ? 'surrounding-anchor' : 'surrounding-row'}>
                <td class="nowrap mono small">${formatTime(l.timestamp)}</td>
                <td><${Badge} value=${l.level} /></td>
                <td class="nowrap small">${l.service}</td>
                <td class="message">${l.message}</td>
              </tr>`,
            )}
          </tbody>
        </table></div>`
      }
    </div>
  `;
}

/** @param {{ log: any, projectId: string, open: boolean, fresh: boolean, terms: string[], onToggle: () => void }} props */
export function LogRow({ log, projectId, open, fresh, terms, onToggle }) {
  const logsWith = (/** @type {string} */ key, /** @type {string} */ value) => projectHref(projectId, 'logs', { q: fieldTerm(key, value) });
  return html`
    <tr class=${`log-row${open ? ' open' : ''}${fresh ? ' log-new' : ''}`} onClick=${onToggle} data-testid="log-row" aria-expanded=${open}>
      <td class="nowrap mono time-cell">${formatTime(log.timestamp)}${fresh && html` <span class="new-badge">new</span>`}</td>
      <td><${Badge} value=${log.level} /></td>
      <td class="nowrap service-cell">${log.service}</td>
      <td class="message"><${Highlight} text=${log.message} terms=${terms} /></td>
    </tr>
    ${
      open &&
      html`<tr class="log-detail">
      <td colspan="4">
        <dl class="fields">
          <dt>Time</dt><dd>${formatTime(log.timestamp, { zone: true })}</dd>
          <dt>Environment</dt><dd>${log.environment}</dd>
          <dt>Release</dt><dd>${log.release || '—'}</dd>
          <dt>Context</dt><dd>${log.context || '—'}</dd>
          <dt>Request id</dt>
          <dd>${log.request_id ? html`<${Link} href=${logsWith('request_id', log.request_id)}>${log.request_id}</${Link}>` : '—'}</dd>
          <dt>Trace</dt>
          <dd>
            ${
              log.trace_id
                ? html`<${Link} href=${projectHref(projectId, `traces/${encodeURIComponent(log.trace_id)}`)} data-testid="log-trace-link">${log.trace_id}</${Link}>
                  · <${Link} href=${logsWith('trace_id', log.trace_id)} data-testid="log-trace-logs">its logs</${Link}>
                  · <${Link} href=${projectHref(projectId, `traces/${encodeURIComponent(log.trace_id)}`) + '#errors'}>its errors</${Link}>`
                : '—'
            }
          </dd>
          <dt>Span</dt><dd>${log.span_id || '—'}</dd>
          <dt>Received</dt><dd>${formatTime(log.received_at)}</dd>
        </dl>
        <h4>Metadata</h4>
        <${JsonView} value=${log.metadata} />
        <div class="spaced"><${Surrounding} projectId=${projectId} log=${log} /></div>
      </td>
    </tr>`
    }
  `;
}
