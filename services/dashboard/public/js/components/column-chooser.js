import { html } from 'htm/preact';

// The logs explorer's column chooser: columns for metadata keys (a `user_id` column showing
// each log's metadata.user_id), picked from the keys the facets saw, kept in the URL as
// `cols=user_id,region` (docs/dashboard.md, "Logs explorer").

export const MAX_COLUMNS = 6;
/** A key that can be a column: one the search can write (so its facet can filter), without a comma (the URL's separator). */
export const columnKey = (/** @type {string} */ k) => k.length > 0 && k.length <= 200 && !/[\s:()",]/.test(k);

/** The columns the URL asks for. @param {URLSearchParams} query @returns {string[]} */
export const columnsOf = (query) => [...new Set((query.get('cols') || '').split(',').filter(columnKey))].slice(0, MAX_COLUMNS);

/** A metadata value as a cell shows it: text as it is, other values as JSON; undefined when the log has no such key. @param {unknown} v */
export function cellText(v) {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  const s = JSON.stringify(v);
  return s.length > 200 ? `${s.slice(0, 199)}…` : s;
}

/**
 * @param {{ keys: string[], columns: string[], onChange: (columns: string[]) => void }} props
 */
export function ColumnChooser({ keys, columns, onChange }) {
  const choosable = [...new Set([...columns, ...keys.filter(columnKey)])];
  const toggle = (/** @type {string} */ k, /** @type {boolean} */ on) => onChange(on ? [...columns, k].slice(0, MAX_COLUMNS) : columns.filter((c) => c !== k));
  return html`
    <details class="menu" data-testid="columns-menu">
      <summary class="btn btn-small">Columns${columns.length > 0 ? ` (${columns.length})` : ''}</summary>
      <div class="menu-body">
        <p class="small muted">A column per metadata key (at most ${MAX_COLUMNS}), from the keys of the newest matching logs</p>
        ${choosable.length === 0 && html`<p class="small muted">No metadata keys in this range</p>`}
        <div class="column-keys">
          ${choosable.map(
            (k) => html`<label class="inline-check mono small" key=${k}>
              <input type="checkbox" checked=${columns.includes(k)} disabled=${!columns.includes(k) && columns.length >= MAX_COLUMNS}
                onChange=${(e) => toggle(k, e.currentTarget.checked)} /> ${k}
            </label>`,
          )}
        </div>
      </div>
    </details>
  `;
}
