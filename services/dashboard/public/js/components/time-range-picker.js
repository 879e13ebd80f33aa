import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { RANGES, boundsOf, describeRange, rangeOf, rangeParams } from '../lib/time-range.js';
import { setQuery, useLocation } from '../lib/router.js';
import { fromInputTime, toInputTime, zoneLabel } from '../lib/format.js';

// The time range of the page (and of every project page, view-state.js): a preset, or a
// custom absolute range typed in the zone the person chose (UTC or local, shown), in the same
// ISO 24-hour form as every time on the pages (a browser's datetime input shows its locale's
// 12-hour clock in some locales).

export function TimeRangePicker() {
  const { query } = useLocation();
  const range = rangeOf(query);
  const [custom, setCustom] = useState(range.kind === 'absolute');
  const bounds = boundsOf(range);
  const [draft, setDraft] = useState({ from: toInputTime(bounds.from), to: toInputTime(bounds.to) });
  const [error, setError] = useState('');
  useEffect(() => {
    const b = boundsOf(rangeOf(new URLSearchParams(location.search)));
    setDraft({ from: toInputTime(b.from), to: toInputTime(b.to) });
    setCustom(range.kind === 'absolute');
  }, [query.get('from'), query.get('to'), query.get('range')]);

  const choose = (/** @type {string} */ id) => {
    if (id === 'custom') {
      setCustom(true);
      return;
    }
    setCustom(false);
    setQuery({ range: id, from: null, to: null }, { replace: false });
  };
  const apply = (/** @type {Event} */ e) => {
    e.preventDefault();
    const from = fromInputTime(draft.from);
    const to = fromInputTime(draft.to);
    if (!Number.isFinite(from) || !Number.isFinite(to)) return setError('Enter a start and an end as YYYY-MM-DD HH:mm (24-hour).');
    if (from >= to) return setError('The start must be before the end.');
    setError('');
    setQuery(rangeParams({ kind: 'absolute', from, to }), { replace: false });
  };
  return html`
    <div class="range-picker" data-testid="range-picker">
      <label>
        <span class="sr-only">Time range</span>
        <select data-testid="time-range" value=${custom ? 'custom' : range.kind === 'relative' ? range.id : 'custom'} onChange=${(e) => choose(e.currentTarget.value)}>
          ${RANGES.map((r) => html`<option value=${r.id}>${r.label}</option>`)}
          ${range.kind === 'relative' && !RANGES.some((r) => r.id === range.id) && html`<option value=${range.id}>${describeRange(range)}</option>`}
          <option value="custom">Custom range…</option>
        </select>
      </label>
      ${
        custom &&
        html`<form class="custom-range" onSubmit=${apply} data-testid="custom-range">
          <label>From <input type="text" name="from" inputmode="numeric" placeholder="YYYY-MM-DD HH:mm" size="16" spellcheck="false" value=${draft.from} onInput=${(e) => setDraft({ ...draft, from: e.currentTarget.value })} /></label>
          <label>To <input type="text" name="to" inputmode="numeric" placeholder="YYYY-MM-DD HH:mm" size="16" spellcheck="false" value=${draft.to} onInput=${(e) => setDraft({ ...draft, to: e.currentTarget.value })} /></label>
          <span class="muted small zone-note">${zoneLabel()}</span>
          <button class="btn" type="submit">Apply</button>
          ${error && html`<span class="field-error" role="alert">${error}</span>`}
        </form>`
      }
      ${range.kind === 'absolute' && html`<span class="range-label muted small" data-testid="range-label">${describeRange(range)}</span>`}
    </div>
  `;
}
