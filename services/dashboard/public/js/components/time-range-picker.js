import { html } from 'htm/preact';
import { RANGES, DEFAULT_RANGE } from '../lib/time-range.js';
import { setQuery } from '../lib/router.js';

export function TimeRangePicker({ value }) {
  return html`
    <label class="range-picker">
      <span class="sr-only">Time range</span>
      <select data-testid="time-range" value=${value || DEFAULT_RANGE} onChange=${(e) => setQuery({ range: e.currentTarget.value })}>
        ${RANGES.map((r) => html`<option value=${r.id}>${r.label}</option>`)}
      </select>
    </label>
  `;
}
