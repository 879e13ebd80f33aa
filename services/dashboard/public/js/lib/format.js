// Display helpers: one date and time format everywhere (YYYY-MM-DD HH:mm:ss.SSS, in UTC or
// the browser's zone as the person chose, the zone always named), and numbers in the
// browser's locale. They return strings; rendering escapes them.

/** @typedef {string | number | Date} TimeValue an ISO string, epoch milliseconds or a Date */
/** @typedef {'local' | 'utc'} Zone */

const ZONE_KEY = 'devtrail.zone';
/** @type {Set<() => void>} */
const zoneListeners = new Set();

/** @returns {Zone} */
function storedZone() {
  try {
    return localStorage.getItem(ZONE_KEY) === 'utc' ? 'utc' : 'local';
  } catch {
    return 'local';
  }
}
let zone = storedZone();

export const currentZone = () => zone;

/** @param {Zone} z */
export function setZone(z) {
  zone = z;
  try {
    localStorage.setItem(ZONE_KEY, z);
  } catch {
    // private mode: the choice lasts this page
  }
  for (const fn of zoneListeners) fn();
}

/** @param {() => void} fn */
export function onZoneChange(fn) {
  zoneListeners.add(fn);
  return () => {
    zoneListeners.delete(fn);
  };
}

const pad = (/** @type {number} */ n, w = 2) => String(Math.abs(n)).padStart(w, '0');

/** The zone's name as shown beside times: "UTC", or the browser zone's offset ("UTC+02:00") at that instant. */
export function zoneLabel(at = Date.now()) {
  if (zone === 'utc') return 'UTC';
  const offset = -new Date(at).getTimezoneOffset();
  return `UTC${offset < 0 ? '−' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/** @param {Date} d */
function fieldsOf(d) {
  const utc = zone === 'utc';
  return {
    year: utc ? d.getUTCFullYear() : d.getFullYear(),
    month: (utc ? d.getUTCMonth() : d.getMonth()) + 1,
    day: utc ? d.getUTCDate() : d.getDate(),
    hour: utc ? d.getUTCHours() : d.getHours(),
    minute: utc ? d.getUTCMinutes() : d.getMinutes(),
    second: utc ? d.getUTCSeconds() : d.getSeconds(),
    ms: utc ? d.getUTCMilliseconds() : d.getMilliseconds(),
  };
}

/**
 * @param {TimeValue} value
 * @param {{ seconds?: boolean, ms?: boolean, zone?: boolean }} [options] `zone` appends the zone's name
 */
export function formatTime(value, { seconds = true, ms = seconds, zone: withZone = false } = {}) {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  const f = fieldsOf(d);
  let out = `${f.year}-${pad(f.month)}-${pad(f.day)} ${pad(f.hour)}:${pad(f.minute)}`;
  if (seconds) out += `:${pad(f.second)}${ms ? `.${pad(f.ms, 3)}` : ''}`;
  return withZone ? `${out} ${zoneLabel(d.getTime())}` : out;
}

/**
 * A chart axis tick: the part of formatTime that changes between ticks `stepMs` apart.
 * @param {number} ms
 * @param {number} stepMs
 */
export function formatAxisTime(ms, stepMs) {
  const f = fieldsOf(new Date(ms));
  const hm = `${pad(f.hour)}:${pad(f.minute)}`;
  if (stepMs < 60_000) return `${hm}:${pad(f.second)}`;
  if (stepMs < 6 * 3600_000) return hm;
  if (stepMs < 24 * 3600_000) return `${pad(f.month)}-${pad(f.day)} ${hm}`;
  return `${f.year}-${pad(f.month)}-${pad(f.day)}`;
}

/** The value of a datetime-local input showing this instant in the chosen zone. @param {number} ms */
export function toInputTime(ms) {
  return formatTime(ms, { seconds: false });
}

/**
 * The instant a typed time means in the chosen zone (ISO 8601, 24-hour: `2025-06-01 14:30`, a `T`
 * or seconds allowed, as every time is shown); NaN when empty or invalid.
 * @param {string} value
 */
export function fromInputTime(value) {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!m) return Number.NaN;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x || 0));
  return zone === 'utc' ? Date.UTC(y, mo - 1, d, h, mi, s) : new Date(y, mo - 1, d, h, mi, s).getTime();
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

// Numbers in the browser's locale (undefined: its default), made once.
const integers = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
/** @type {Map<number, Intl.NumberFormat>} */
const decimals = new Map();
const decimal = (/** @type {number} */ digits) => {
  let f = decimals.get(digits);
  if (!f) decimals.set(digits, (f = new Intl.NumberFormat(undefined, { minimumFractionDigits: digits, maximumFractionDigits: digits })));
  return f;
};
const usd2 = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Under a cent, three significant digits: a call's $0.0000123 is not $0.0000. */
const usdSmall = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', maximumSignificantDigits: 3 });

/** A count, grouped as the browser's locale groups digits. @param {number | string} n */
export const formatNumber = (n) => (Number.isFinite(Number(n)) ? integers.format(Number(n)) : String(n));

/** A number with fixed decimals in the browser's locale. @param {number | string} n @param {number} digits */
export const formatDecimal = (n, digits) => decimal(digits).format(Number(n));

const percents = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 });

/** A share (0..1) as a percentage with up to two decimals, in the browser's locale. @param {number} share */
export const formatPercent = (share) => percents.format(share);

/** @param {number | string} ms */
export function formatDuration(ms) {
  const n = Number(ms);
  if (!Number.isFinite(n)) return '';
  if (n < 1000) return `${formatNumber(Math.round(n))} ms`;
  if (n < 60_000) return `${formatDecimal(n / 1000, n < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(n / 60_000)}m ${Math.round((n % 60_000) / 1000)}s`;
}

/** @param {number | string} usd */
export function formatCost(usd) {
  const n = Number(usd);
  if (!Number.isFinite(n)) return '';
  return (n !== 0 && Math.abs(n) < 0.01 ? usdSmall : usd2).format(n);
}

/**
 * An error's title: its type, then its message unless the message already starts with the type.
 * @param {string} type
 * @param {string} message
 * @returns {{ type: string, message: string }}
 */
export function errorTitle(type, message) {
  const t = type || 'Error';
  const m = message || '';
  if (m === t) return { type: t, message: '' };
  if (m.startsWith(`${t}: `)) return { type: t, message: m.slice(t.length + 2) };
  if (m.startsWith(`${t}:`)) return { type: t, message: m.slice(t.length + 1).trimStart() };
  return { type: t, message: m };
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
