// What stays when moving between a project's pages: the time range and the service and
// environment filters, all in the URL, so a link, a reload or Back shows the same view. A
// filter goes only to the tabs it applies to (a page under a tab, such as one trace, counts
// as the tab), where it shows as a chip (components/filter-chips.js).

export const CARRIED = ['range', 'from', 'to', 'service', 'environment'];
const RANGE = ['range', 'from', 'to'];
/** The carried filters each tab applies, with their chips' labels; a tab not named applies none. */
const TAB_FILTERS = {
  logs: [
    ['service', 'service'],
    ['environment', 'env'],
  ],
  errors: [
    ['service', 'service'],
    ['environment', 'env'],
  ],
  traces: [
    ['service', 'service'],
    ['environment', 'env'],
  ],
  llm: [['service', 'service']],
  releases: [['environment', 'env']],
};

/** @param {string} tab @returns {Array<[string, string]>} */
export const filtersOfTab = (tab) => /** @type {any} */ (TAB_FILTERS)[tab] ?? [];

/**
 * A project page's URL with the current view's carried parameters, and more of its own.
 * @param {string} projectId
 * @param {string} page e.g. "logs" or `traces/${id}`
 * @param {Record<string, string | number | null | undefined>} [extra] parameters to set (null or '' to drop a carried one)
 */
export function projectHref(projectId, page, extra = {}) {
  const now = new URLSearchParams(location.search);
  const q = new URLSearchParams();
  const tab = page.split('/', 1)[0];
  for (const k of [...RANGE, ...filtersOfTab(tab).map(([f]) => f)]) {
    const v = now.get(k);
    if (v) q.set(k, v);
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === null || v === undefined || v === '') q.delete(k);
    else q.set(k, String(v));
  }
  // An absolute range replaces a relative one.
  if (q.has('from') && q.has('to')) q.delete('range');
  const s = q.toString();
  return `/projects/${encodeURIComponent(projectId)}/${page}${s ? `?${s}` : ''}`;
}

/**
 * Logs around an instant (or a span of time), in absolute bounds: what an error or a trace links
 * to. The margin after it stops at now: a range opened from an event never runs into the future.
 * @param {number} fromMs
 * @param {number} toMs
 */
export const aroundParams = (fromMs, toMs, marginMs = 5 * 60_000, now = Date.now()) => ({
  range: null,
  from: Math.floor(fromMs - marginMs),
  to: Math.max(Math.ceil(toMs) + 1, Math.min(Math.ceil(toMs + marginMs), now)),
});
