import { navigationKind } from './router.js';

// What a page showed (its loaded rows, its cursor), by URL, so that Back shows the same list
// at once instead of loading it again; the router puts the scroll position back.

const MAX_ENTRIES = 30;
/** @type {Map<string, unknown>} */
const entries = new Map();

/** @param {string} key */
export function remember(key, value) {
  entries.delete(key);
  entries.set(key, value);
  if (entries.size > MAX_ENTRIES) entries.delete(/** @type {string} */ (entries.keys().next().value));
}

/**
 * What was remembered under this key, when the page was reached by Back or Forward.
 * @template T
 * @param {string} key
 * @returns {T | undefined}
 */
export function recall(key) {
  return navigationKind() === 'pop' ? /** @type {T | undefined} */ (entries.get(key)) : undefined;
}
