import { html } from 'htm/preact';
import { useState } from 'preact/hooks';
import { api, projectApi } from '../lib/api.js';
import { Link } from '../lib/router.js';
import { formatTime, prettyJson } from '../lib/format.js';
import { projectHref } from '../lib/view-state.js';
import { fieldTerm } from '../lib/search-text.js';
import { Badge } from '../components/badges.js';
import { CopyButton } from '../components/copy-button.js';
import { Highlight } from '../components/highlight.js';
import { JsonView } from '../components/json-view.js';
import { ErrorBox } from '../components/status.js';
import { cellText } from '../components/column-chooser.js';

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

/** A metadata value the search can name (a string, number or boolean at the top level), as the search writes it. */
const filterable = (/** @type {unknown} */ v) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null);

/** Top-level metadata values with + (only these) and − (leave out), as the facets do. */
function MetadataFilters({ metadata, onFilter }) {
  const entries = Object.entries(metadata && typeof metadata === 'object' ? metadata : {})
    .map(([k, v]) => [k, filterable(v)])
    .filter(([k, v]) => v !== null && !/[\s:()"]/.test(String(k)));
  if (entries.length === 0) return null;
  return html`<div class="table-wrap"><table class="table compact small" data-testid="metadata-filters">
    <tbody>
      ${entries.map(
        ([k, v]) => html`<tr>
          <td class="mono">${k}</td><td class="mono message">${v}</td>
          <td class="nowrap">
            <button type="button" class="btn btn-small" aria-label=${`Filter in ${k} ${v}`} onClick=${() => onFilter(`metadata.${k}`, v, false)}>+</button>
            <button type="button" class="btn btn-small" aria-label=${`Filter out ${k} ${v}`} onClick=${() => onFilter(`metadata.${k}`, v, true)}>−</button>
          </td>
        </tr>`,
      )}
    </tbody>
  </table></div>`;
}

/** @param {{ log: any, projectId: string, open: boolean, active?: boolean, fresh: boolean, terms: string[], columns?: string[], onToggle: () => void, onFilter?: (name: string, value: string, exclude: boolean) => void }} props */
export function LogRow({ log, projectId, open, active = false, fresh, terms, columns = [], onToggle, onFilter }) {
  const logsWith = (/** @type {string} */ key, /** @type {string} */ value) => projectHref(projectId, 'logs', { q: fieldTerm(key, value) });
  // A row is reached by Tab (or j/k, logs.js) and opens with Enter or Space.
  const onKeyDown = (/** @type {KeyboardEvent} */ e) => {
    if (e.target !== e.currentTarget || (e.key !== 'Enter' && e.key !== ' ')) return;
    e.preventDefault();
    onToggle();
  };
  return html`
    <tr class=${`log-row${open ? ' open' : ''}${fresh ? ' log-new' : ''}${active ? ' kbd-active' : ''}`} onClick=${onToggle} onKeyDown=${onKeyDown} tabIndex="0"
      data-testid="log-row" data-event=${log.event_id} aria-expanded=${open}>
      <td class="nowrap mono time-cell">${formatTime(log.timestamp)}${fresh && html` <span class="new-badge">new</span>`}</td>
      <td><${Badge} value=${log.level} /></td>
      <td class="nowrap service-cell">${log.service}</td>
      <td class="message"><${Highlight} text=${log.message} terms=${terms} /></td>
      ${columns.map((c) => {
        const v = cellText(log.metadata && typeof log.metadata === 'object' ? log.metadata[c] : undefined);
        return html`<td key=${c} class="meta-cell mono small" data-label=${c} data-testid="column-cell">${v === undefined ? html`<span class="muted">—</span>` : v}</td>`;
      })}
    </tr>
    ${
      open &&
      html`<tr class="log-detail">
      <td colspan=${4 + columns.length}>
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
        <div class="row spread"><h4>Metadata</h4>
          <span class="row">
            <${CopyButton} text=${log.message} label="Copy line" testId="copy-line" />
            <${CopyButton} text=${prettyJson(log)} label="Copy JSON" testId="copy-json" />
            <${CopyButton} text=${log.event_id} label="Copy id" testId="copy-id" />
          </span>
        </div>
        <${JsonView} value=${log.metadata} />
        ${onFilter && html`<${MetadataFilters} metadata=${log.metadata} onFilter=${onFilter} />`}
        <div class="spaced"><${Surrounding} projectId=${projectId} log=${log} /></div>
      </td>
    </tr>`
    }
  `;
}
