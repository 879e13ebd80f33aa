import { httpError } from './http-answer.ts';

// How much structure one JSON request body may have, checked on its text BEFORE it is
// parsed. JSON.parse has no limits: a 5 MB body of `{},{},…` is 1.7 million objects and
// half a second on the event loop; one object of 300,000 keys is as slow (and costs as much
// again wherever it is serialised); 2.6 million numbers are cheaper, but not free. A scan of the text costs a few milliseconds and stops at
// the first limit passed (docs/api.md#limits-defaults-and-normalisation).

/** Objects and arrays in one body. A full 5 MB OTLP/JSON export holds about 200,000. */
export const MAX_JSON_CONTAINERS = 250_000;
/** Keys of one object. */
export const MAX_JSON_OBJECT_KEYS = 10_000;
/** Values (array items and object members, counted by their separators) in one body: 5 bytes each at 5 MB. */
export const MAX_JSON_VALUES = 1_000_000;

/** The 413's message for each limit. */
export const JSON_TOO_COMPLEX = {
  containers: `JSON body too complex: more than ${MAX_JSON_CONTAINERS} objects and arrays`,
  values: `JSON body too complex: more than ${MAX_JSON_VALUES} values`,
  keys: `JSON body too complex: an object with more than ${MAX_JSON_OBJECT_KEYS} keys`,
} as const;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** A body past one of the limits above: 413. Malformed text is left to the parser, which says where. */
export function checkJsonShape(text: string): void {
  let containers = 0;
  let values = 0;
  // Keys seen in each open object (-1 for an open array), innermost last.
  const open: number[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string: to the next quote not escaped by an odd run of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i === -1) return; // unterminated: the parser refuses it
        let b = i - 1;
        while (text.charCodeAt(b) === BACKSLASH) b--;
        if ((i - b) % 2 === 1) break;
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++containers > MAX_JSON_CONTAINERS) throw httpError(413, JSON_TOO_COMPLEX.containers);
      open.push(c === OPEN_OBJECT ? 0 : -1);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      open.pop();
    } else if (c === COMMA) {
      if (++values > MAX_JSON_VALUES) throw httpError(413, JSON_TOO_COMPLEX.values);
    } else if (c === COLON && open.length > 0 && open[open.length - 1] >= 0) {
      if (++open[open.length - 1] > MAX_JSON_OBJECT_KEYS) throw httpError(413, JSON_TOO_COMPLEX.keys);
    }
  }
}
