// The time range every data page is bounded by, kept in the URL (?range=1h).

export const RANGES = [
  { id: '15m', label: 'Last 15 minutes', ms: 15 * 60_000 },
  { id: '1h', label: 'Last hour', ms: 3600_000 },
  { id: '6h', label: 'Last 6 hours', ms: 6 * 3600_000 },
  { id: '24h', label: 'Last 24 hours', ms: 24 * 3600_000 },
  { id: '7d', label: 'Last 7 days', ms: 7 * 24 * 3600_000 },
  { id: '30d', label: 'Last 30 days', ms: 30 * 24 * 3600_000 },
];
export const DEFAULT_RANGE = '24h';

/** @typedef {typeof RANGES[number]} TimeRange */

/**
 * The range with this id, or the default one.
 * @param {string | null | undefined} id
 * @returns {TimeRange}
 */
export function rangeOf(id) {
  return RANGES.find((r) => r.id === id) ?? RANGES.find((r) => r.id === DEFAULT_RANGE) ?? RANGES[0];
}

/** The query bounds of a range id, ending a minute ahead of now (client clocks drift). */
/** @param {string | null | undefined} id */
export function boundsOf(id, now = Date.now()) {
  const r = rangeOf(id);
  return { from: now - r.ms, to: now + 60_000 };
}
