// Editing the logs search text from the page (a facet clicked in or out): terms written in
// the syntax docs/dashboard.md describes, quoted when a value needs it, so the server reads
// exactly the value that was clicked.

/** A value as the syntax reads it literally: bare when it can be, else "quoted" with \ before " and \. @param {string} value */
export function quoteValue(value) {
  if (value !== '' && !/[\s()"*]/.test(value) && !/^[<>]/.test(value)) return value;
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * `key:value`, or `-key:value` to leave it out; metadata keys as metadata.<key>.
 * @param {string} key
 * @param {string} value
 */
export function fieldTerm(key, value, exclude = false) {
  return `${exclude ? '-' : ''}${key}:${quoteValue(value)}`;
}

/**
 * The search with a term added (and its opposite, if there, removed).
 * @param {string} query
 * @param {string} term
 */
export function addTerm(query, term) {
  const opposite = term.startsWith('-') ? term.slice(1) : `-${term}`;
  const words = query.trim() ? query.trim().split(/\s+/) : [];
  // Only whole words are compared: a quoted phrase with spaces is left as it is.
  const kept = words.filter((w) => w !== opposite && w !== term);
  return [...kept, term].join(' ');
}

/** @typedef {{ from: number | null, to: number | null }} NumberRange values above `from` up to and including `to` (null: unbounded) */

/** A range of a numeric facet as the facet shows it. @param {NumberRange} r */
export const rangeLabel = (r) => (r.from === null ? `≤ ${r.to}` : r.to === null ? `> ${r.from}` : `${r.from} – ${r.to}`);
/** The same in words. @param {NumberRange} r */
export const rangeTitle = (r) => [r.from !== null && `above ${r.from}`, r.to !== null && `up to ${r.to}`].filter(Boolean).join(', ');

/**
 * The search with a metadata key kept to a range (`metadata.k:>a metadata.k:<=b`), replacing
 * the comparisons of that key it had; or, to leave the range out, with `-(…)` added.
 * @param {string} query
 * @param {string} key
 * @param {NumberRange} r
 */
export function withRange(query, key, r, exclude = false) {
  const name = `metadata.${key}`;
  const terms = [r.from !== null && `${name}:>${r.from}`, r.to !== null && `${name}:<=${r.to}`].filter(Boolean);
  const words = query.trim() ? query.trim().split(/\s+/) : [];
  if (exclude) return [...words, terms.length === 1 ? `-${terms[0]}` : `-(${terms.join(' ')})`].join(' ');
  const compares = (/** @type {string} */ w) => w.startsWith(`${name}:`) && /^[<>]/.test(w.slice(name.length + 1));
  return [...words.filter((w) => !compares(w)), ...terms].join(' ');
}
