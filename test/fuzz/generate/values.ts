import fc from 'fast-check';
import { MAX_JSON_DEPTH } from '@devtrail/kinds';
import { deepArrays, rawNumber, type RawJson } from './raw-json.ts';

// Values over (and past) the whole domain of the ingest schemas: the edges a real client
// or a hostile one sends. Weighted towards edges; plain values keep most bodies valid.

/** Pieces real clients produce: a cut emoji (lone surrogates), NUL, bidi controls, BOM, line separators, quotes. */
const EDGE_PIECES = [
  '\uD83D',
  '\uDE00',
  '\uDBFF',
  '\uDC00',
  '😀'.slice(0, 1),
  '\u0000',
  '\u202E',
  '\u200F',
  '\u2066',
  '\uFEFF',
  '\u2028',
  '\u0007',
  '\t\n\r',
  '"\\\'',
  '%s%n',
  'e\u0301',
  '👩‍👩‍👧',
  'שלום',
  'مرحبا',
  '\uFFFD',
  '\uFFFF',
];

const unit = fc.oneof({ weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) }, { weight: 1, arbitrary: fc.constantFrom(...EDGE_PIECES) });

/** ~1 MB, with an edge piece in it (a truncated emoji at the very end, as a cutting SDK leaves it). */
const longString = fc
  .tuple(fc.integer({ min: 200_000, max: 1_000_000 }), fc.constantFrom(...EDGE_PIECES))
  .map(([n, piece]) => `${'long '.repeat(Math.floor(n / 5))}${piece}`);

// Mostly clean text, so that a finding can be told apart by class; an edge piece in about one string of twelve.
export const edgeString = fc.oneof(
  { weight: 14, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', ...EDGE_PIECES) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 100, maxLength: 3000 }) },
);

/** Edge strings, and rarely (a few per run) one of about a megabyte. */
export const edgeOrLongString = fc.oneof({ weight: 60, arbitrary: edgeString }, { weight: 1, arbitrary: longString });

/** Identifiers: short and well-formed mostly, then long (past any sane bound) and odd. */
export const idString = fc.oneof(
  { weight: 12, arbitrary: fc.stringMatching(/^[0-9a-f]{16,32}$/) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 64 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 600 }).map((n) => 'x'.repeat(n)) },
);

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** ISO 8601 with offset, across 0000..9999 (the column type holds 1900..2299), near the edges most. */
export const isoTimestamp = fc
  .record({
    // Mostly years the column holds (1900..2299, edges included), then any year ISO 8601 can write.
    year: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 1971, max: 2100 }) },
      { weight: 2, arbitrary: fc.constantFrom(1900, 1901, 1969, 1970, 2262, 2263, 2298, 2299) },
      { weight: 1, arbitrary: fc.constantFrom(0, 1, 1899, 2300, 9999) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 9999 }) },
    ),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.oneof(fc.constant(''), fc.stringMatching(/^\.\d{1,9}$/)),
    offset: fc.oneof(
      { weight: 3, arbitrary: fc.constant('Z') },
      { weight: 2, arbitrary: fc.constantFrom('+00:00', '-00:00', '+05:30', '-12:00', '+14:00', '-14:00', '+23:59', '-23:59', '+0530', '-08', '+01') },
    ),
    edge: fc.constantFrom(null, null, null, null, 'first', 'last'),
  })
  .map((t) => {
    if (t.edge === 'first') return `${pad(t.year, 4)}-01-01T00:00:00${t.fraction}${t.offset}`;
    if (t.edge === 'last') return `${pad(t.year, 4)}-12-31T23:59:59${t.fraction}${t.offset}`;
    return `${pad(t.year, 4)}-${pad(t.month, 2)}-${pad(t.day, 2)}T${pad(t.hour, 2)}:${pad(t.minute, 2)}:${pad(t.second, 2)}${t.fraction}${t.offset}`;
  });

/** Numbers from -0 to 1e308 and past (literals JSON allows and JSON.parse reads as Infinity). */
export const edgeNumber: fc.Arbitrary<number | RawJson> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 100_000 }) },
  { weight: 2, arbitrary: fc.double({ min: 0, max: 1e6, noNaN: true }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<number | RawJson>(
      0,
      0.4,
      0.5,
      1.5,
      2 ** 31,
      2 ** 32,
      2 ** 53 - 1,
      2 ** 53,
      2 ** 53 + 2,
      2 ** 63,
      2 ** 64,
      1e19,
      1e20,
      1e21,
      1e30,
      1e308,
      Number.MAX_VALUE,
      Number.MIN_VALUE,
      -1,
      -0.4,
      -1e308,
      rawNumber('-0'),
      rawNumber('1e309'),
      rawNumber('-1e309'),
      rawNumber('1E+400'),
      rawNumber('1e-400'),
      rawNumber('18446744073709551616'),
      rawNumber('18446744073709551615'),
    ),
  },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
);

/** A JSON scalar, edge strings and numbers included. */
const scalar = fc.oneof(edgeString, edgeNumber, fc.boolean(), fc.constant(null));

/** An object nested exactly `depth` levels (objects and arrays alternating), a scalar at the bottom. */
export function nested(depth: number, leaf: unknown = 'bottom'): Record<string, unknown> {
  let v: unknown = leaf;
  for (let d = depth; d >= 1; d--) v = d % 2 === 1 ? { [`l${d}`]: v } : [v];
  return v as Record<string, unknown>;
}

/** Free-form metadata: small random trees with edge keys and values, or nested at and past the limit. */
export const jsonObject = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.dictionary(
      edgeString,
      fc.oneof({ depthSize: 'small' }, scalar, fc.array(scalar, { maxLength: 4 }), fc.dictionary(edgeString, scalar, { maxKeys: 3 })),
      { maxKeys: 5 },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1, MAX_JSON_DEPTH + 20).map((d) => nested(d)) },
);

/** Fields no schema declares (the receiver ignores them or keeps them; it must not fall over). */
export const unknownFields = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 3,
    arbitrary: fc.dictionary(
      fc.string({ maxLength: 12 }).map((k) => `x_${k}`),
      scalar,
      { maxKeys: 3 },
    ),
  },
  // Far deeper than the limit, in a field nobody reads.
  { weight: 1, arbitrary: fc.constant({ x_deep: deepArrays(5000) }) },
);

/** Sometimes absent: fields with a default or an optional field. */
export const maybe = <T>(arb: fc.Arbitrary<T>, absentWeight = 1) => fc.oneof({ weight: absentWeight, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: arb });

/** Rarely the wrong JSON type for a field: the receiver must answer 400, not store or fail. */
export const orWrongType = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 40, arbitrary: arb }, { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 42, 'str', [], {}, true) });
