import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { formatNumber } from '../lib/format.js';
import { rangeLabel, rangeTitle } from '../lib/search-text.js';

// The logs explorer's facets: each value with its count, to filter in (+) or out (−).
// Column facets count every matching log; metadata facets the newest ones (the API's sample).
// A numeric metadata key with more values than the facet lists is shown as ranges instead,
// counted exactly over every matching log when the facet is opened (GET /logs/facets/ranges).

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

/** @typedef {{ from: number | null, to: number | null, count: number }} Range */

/**
 * @param {{ name: string, title: string, total: number, reloadKey: string, load: () => Promise<{ ranges: Range[] }>,
 *   onRange: (range: Range, exclude: boolean) => void }} props
 */
function RangeFacet({ name, title, total, reloadKey, load, onRange }) {
  const [open, setOpen] = useState(false);
  const [state, setState] = useState(/** @type {{ key?: string, ranges?: Range[], error?: unknown }} */ ({}));
  useEffect(() => {
    if (!open || state.key === reloadKey) return undefined;
    let live = true;
    load().then(
      (r) => live && setState({ key: reloadKey, ranges: r.ranges }),
      (error) => live && setState({ key: reloadKey, error }),
    );
    return () => {
      live = false;
    };
  }, [open, reloadKey]);
  const ranges = state.ranges ?? [];
  const max = Math.max(1, ...ranges.map((r) => r.count));
  return html`
    <details class="facet" open=${open} onToggle=${(e) => setOpen(e.currentTarget.open)} data-testid=${`facet-${name}`} data-ranges="true">
      <summary><span class="facet-title">${title} <span class="muted small">(ranges)</span></span><span class="muted small">${formatNumber(total)}</span></summary>
      ${open && state.key !== reloadKey && html`<span class="muted small">Counting…</span>`}
      ${state.error && html`<span class="muted small">Ranges unavailable</span>`}
      <ul>
        ${ranges.map(
          (r) => html`<li key=${`${r.from}-${r.to}`} data-testid="facet-range">
            <button type="button" class="facet-value" title=${`Show only ${title} ${rangeTitle(r)}`} onClick=${() => onRange(r, false)}>
              <span class="facet-bar" style=${{ width: `${(r.count / max) * 100}%` }}></span>
              <span class="facet-label">${rangeLabel(r)}</span>
              <span class="facet-count">${formatNumber(r.count)}</span>
            </button>
            <button type="button" class="facet-op" aria-label=${`Filter in ${title} ${rangeLabel(r)}`} title="Filter in" onClick=${() => onRange(r, false)}>+</button>
            <button type="button" class="facet-op" aria-label=${`Filter out ${title} ${rangeLabel(r)}`} title="Filter out" onClick=${() => onRange(r, true)}>−</button>
          </li>`,
        )}
      </ul>
    </details>
  `;
}

/** Whether a metadata facet is shown as ranges: numbers only, more of them than its values list. @param {{ numeric?: boolean, count: number, values: Array<{ count: number }> }} m */
const asRanges = (m) => m.numeric === true && m.values.reduce((s, v) => s + v.count, 0) < m.count;

/**
 * @param {{ facets: { columns: Record<string, Array<{ value: string, count: number }>>, metadata: Array<{ key: string, count: number, values: Array<{ value: string, count: number }> }>, sampled: number },
 *   onFilter: (name: string, value: string, exclude: boolean) => void, reloadKey: string,
 *   loadRanges: (key: string) => Promise<{ ranges: Range[] }>, onRange: (key: string, range: Range, exclude: boolean) => void }} props
 */
export function Facets({ facets, onFilter, reloadKey, loadRanges, onRange }) {
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
      ${metadata.map((m) =>
        asRanges(m)
          ? html`<${RangeFacet} key=${`r.${m.key}`} name=${`metadata.${m.key}`} title=${m.key} total=${m.count} reloadKey=${reloadKey}
              load=${() => loadRanges(m.key)} onRange=${(/** @type {Range} */ r, /** @type {boolean} */ ex) => onRange(m.key, r, ex)} />`
          : html`<${Facet} key=${`m.${m.key}`} name=${`metadata.${m.key}`} title=${m.key} total=${m.count} values=${m.values} onFilter=${onFilter} open=${repeats(m)} />`,
      )}
     </details>
    </aside>
  `;
}
