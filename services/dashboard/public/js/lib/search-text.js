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
