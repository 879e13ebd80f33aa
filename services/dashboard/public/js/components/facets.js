import { html } from 'htm/preact';
import { formatNumber } from '../lib/format.js';

// The logs explorer's facets: each value with its count, to filter in (+) or out (−).
// Column facets count every matching log; metadata facets the newest ones (the API's sample).

/** Whether a metadata key's most common value is on more than one log. @param {{ values: Array<{ count: number }> }} m */
const repeats = (m) => (m.values[0]?.count ?? 0) > 1;

const COLUMN_TITLES = { level: 'Level', service: 'Service', environment: 'Environment', release: 'Release' };

/**
 * @param {{ name: string, title: string, values: Array<{ value: string, count: number }>, total?: number,
 *   onFilter: (name: string, value: string, exclude: boolean) => void, open?: boolean }} props
 */
function Facet({ name, title, values, total, onFilter, open = true }) {
  if (values.length === 0) return null;
  const max = Math.max(1, ...values.map((v) => v.count));
  return html`
    <details class="facet" open=${open} data-testid=${`facet-${name}`}>
      <summary><span class="facet-title">${title}</span>${total !== undefined && html`<span class="muted small">${formatNumber(total)}</span>`}</summary>
      <ul>
        ${values.map(
          (v) => html`<li key=${v.value}>
            <button type="button" class="facet-value" title=${`Show only ${title.toLowerCase()} ${v.value || '(empty)'}`} onClick=${() => onFilter(name, v.value, false)}>
              <span class="facet-bar" style=${{ width: `${(v.count / max) * 100}%` }}></span>
              <span class="facet-label">${v.value === '' ? html`<em class="muted">(empty)</em>` : v.value}</span>
              <span class="facet-count">${formatNumber(v.count)}</span>
            </button>
            <button type="button" class="facet-op" aria-label=${`Filter in ${title} ${v.value}`} title="Filter in" onClick=${() => onFilter(name, v.value, false)}>+</button>
            <button type="button" class="facet-op" aria-label=${`Filter out ${title} ${v.value}`} title="Filter out" onClick=${() => onFilter(name, v.value, true)}>−</button>
          </li>`,
        )}
      </ul>
    </details>
  `;
}

/**
 * @param {{ facets: { columns: Record<string, Array<{ value: string, count: number }>>, metadata: Array<{ key: string, count: number, values: Array<{ value: string, count: number }> }>, sampled: number },
 *   onFilter: (name: string, value: string, exclude: boolean) => void }} props
 */
export function Facets({ facets, onFilter }) {
  // On a narrow screen the facets sit above the list, folded until asked for.
  const wide = window.matchMedia('(min-width: 901px)').matches;
  // Metadata keys whose values repeat first: a key with a different value on every log
  // (a request id) is listed folded.
  const metadata = [...facets.metadata].sort((a, b) => Number(repeats(b)) - Number(repeats(a)));
  return html`
    <aside class="facets" aria-label="Facets" data-testid="facets">
     <details class="facets-box" open=${wide}>
      <summary class="facets-toggle">Filters</summary>
      ${Object.entries(COLUMN_TITLES).map(([name, title]) => html`<${Facet} key=${name} name=${name} title=${title} values=${facets.columns[name] || []} onFilter=${onFilter} />`)}
      ${
        facets.metadata.length > 0 &&
        html`<div class="facet-group-title muted small" title=${`From the newest ${formatNumber(facets.sampled)} matching logs`}>Metadata (newest ${formatNumber(facets.sampled)})</div>`
      }
      ${metadata.map(
        (m) =>
          html`<${Facet} key=${`m.${m.key}`} name=${`metadata.${m.key}`} title=${m.key} total=${m.count} values=${m.values} onFilter=${onFilter} open=${repeats(m)} />`,
      )}
     </details>
    </aside>
  `;
}
