import { html } from 'htm/preact';
import { setQuery, useLocation } from '../lib/router.js';
import { filtersOfTab } from '../lib/view-state.js';

// The page's active filters as chips: each names its filter and value and clears it (×).
// A tab shows the carried filters it applies (view-state.js) and any of its own.

/** @param {{ tab: string, own?: Array<[string, string]> }} props own: [URL parameter, label] of the page's own filters */
export function FilterChips({ tab, own = [] }) {
  const { query } = useLocation();
  const active = [...filtersOfTab(tab), ...own].filter(([k]) => query.get(k));
  if (active.length === 0) return null;
  return html`<div class="chips" data-testid="filter-chips" aria-label="Active filters">
    ${active.map(
      ([k, label]) => html`<span class="chip" data-testid="filter-chip" data-filter=${k}>${label}: ${query.get(k)}
        <button type="button" aria-label=${`Remove filter ${label}`} onClick=${() => setQuery({ [k]: null }, { replace: false })}>×</button></span>`,
    )}
  </div>`;
}
