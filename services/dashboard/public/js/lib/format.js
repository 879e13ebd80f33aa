// Display helpers. They return strings; rendering escapes them.

/** @typedef {string | number | Date} TimeValue an ISO string, epoch milliseconds or a Date */

/**
 * @param {TimeValue} iso
 * @param {{ seconds?: boolean }} [options]
 */
export function formatTime(iso, { seconds = true } = {}) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  const pad = (/** @type {number} */ n, w = 2) => String(n).padStart(w, '0');
  const date = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}${seconds ? `:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}` : ''}`;
  return `${date} ${time}`;
}

/** @param {TimeValue} iso */
export function timeAgo(iso, now = Date.now()) {
  const s = Math.round((now - new Date(iso).getTime()) / 1000);
  if (!Number.isFinite(s)) return '';
  if (s < 5) return 'just now';
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}

/** @param {number | string} ms */
export function formatDuration(ms) {
  const n = Number(ms);
  if (!Number.isFinite(n)) return '';
  if (n < 1000) return `${Math.round(n)} ms`;
  if (n < 60_000) return `${(n / 1000).toFixed(n < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(n / 60_000)}m ${Math.round((n % 60_000) / 1000)}s`;
}

export const formatNumber = (/** @type {number | string} */ n) => Number(n).toLocaleString('en-US');

/** @param {number | string} usd */
export function formatCost(usd) {
  const n = Number(usd);
  if (!Number.isFinite(n)) return '';
  return n !== 0 && Math.abs(n) < 0.01 ? `$${n.toFixed(4)}` : `$${n.toFixed(2)}`;
}

/**
 * Pretty JSON for metadata and context; plain text when the value is a string.
 * @param {unknown} value
 */
export function prettyJson(value) {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

export const isEmptyObject = (/** @type {unknown} */ v) => v === null || v === undefined || v === '' || (typeof v === 'object' && Object.keys(v).length === 0);
