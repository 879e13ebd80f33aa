import { formatTime, zoneLabel } from './format.js';

// The time range every data page is bounded by, kept in the URL and carried from tab to tab
// (view-state.js): a relative one (?range=1h, ending now) or an absolute one
// (?from=<epoch ms>&to=<epoch ms>, from the custom picker or a zoom on a chart).

export const RANGES = [
  { id: '15m', label: 'Last 15 minutes' },
  { id: '1h', label: 'Last hour' },
  { id: '6h', label: 'Last 6 hours' },
  { id: '24h', label: 'Last 24 hours' },
  { id: '7d', label: 'Last 7 days' },
  { id: '30d', label: 'Last 30 days' },
];
export const DEFAULT_RANGE = '24h';
const UNIT_MS = { m: 60_000, h: 3600_000, d: 86_400_000 };
/** A relative range as the API's saved searches take it too: a number and m, h or d. */
export const RELATIVE = /^(\d{1,4})([mhd])$/;

/** @typedef {{ kind: 'relative', id: string, ms: number } | { kind: 'absolute', from: number, to: number }} Range */

/** @param {string | null | undefined} id */
export function relativeMs(id) {
  const m = RELATIVE.exec(id || '');
  return m ? Number(m[1]) * UNIT_MS[/** @type {'m' | 'h' | 'd'} */ (m[2])] : null;
}

/** @param {string | null} v */
const instant = (v) => (v && /^\d{10,14}$/.test(v) ? Number(v) : v ? Date.parse(v) : Number.NaN);

/**
 * The range a URL asks for: absolute when it has a valid from and to, else relative (default 24 hours).
 * @param {URLSearchParams} query
 * @returns {Range}
 */
export function rangeOf(query) {
  const from = instant(query.get('from'));
  const to = instant(query.get('to'));
  if (Number.isFinite(from) && Number.isFinite(to) && from < to) return { kind: 'absolute', from, to };
  const id = query.get('range') || '';
  const ms = relativeMs(id);
  return ms ? { kind: 'relative', id, ms } : { kind: 'relative', id: DEFAULT_RANGE, ms: /** @type {number} */ (relativeMs(DEFAULT_RANGE)) };
}

/**
 * The query bounds (epoch ms): a relative range ends a minute ahead of now (client clocks drift).
 * @param {Range} r
 */
export function boundsOf(r, now = Date.now()) {
  return r.kind === 'absolute' ? { from: r.from, to: r.to } : { from: now - r.ms, to: now + 60_000 };
}

/** A short description of a range, its zone named. @param {Range} r */
export function describeRange(r) {
  if (r.kind === 'relative') return RANGES.find((x) => x.id === r.id)?.label ?? `Last ${r.id}`;
  return `${formatTime(r.from, { seconds: false })} – ${formatTime(r.to, { seconds: false })} ${zoneLabel(r.from)}`;
}

/** The URL parameters of a range (the others cleared). @param {Range} r */
export function rangeParams(r) {
  return r.kind === 'absolute' ? { range: null, from: String(Math.round(r.from)), to: String(Math.round(r.to)) } : { range: r.id, from: null, to: null };
}
