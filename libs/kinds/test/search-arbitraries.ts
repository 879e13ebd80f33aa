import fc from 'fast-check';
import type { SearchMap } from '../src/search/fields.ts';
import { bareText, bareValue, type SearchNode } from '../src/search/syntax.ts';

// Generators of valid search trees (what the parser can produce from a kind's map) for the search
// syntax's property tests: every field of the map, operator and quoting case, with text full of
// the characters the syntax gives a meaning to.

const SPECIAL = [' ', '"', '\\', '(', ')', ':', '-', '*', '%', '_', "'", '<', '>', '=', '.', '\t', '\n', 'é', 'É', '€', '😀', '{', '}', ','];
const WORDS = ['OR', 'AND', 'NOT', 'or', 'level', 'metadata.', 'https://x', 'u_1042', 'Timeout', 'a'];

/** Any text, leaning on the characters and words the syntax reads specially. */
export const anyText = fc.oneof(
  fc.string({ unit: fc.constantFrom(...SPECIAL, 'a', 'B', '1'), maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.array(fc.constantFrom(...WORDS, ...SPECIAL), { maxLength: 4 }).map((a) => a.join('')),
);

const wildFrom = (text: fc.Arbitrary<string>) =>
  fc
    .tuple(text, fc.constantFrom('*', 'a*', '*1', '_*', '*%*'), text)
    .map(([a, w, b]) => `${a}${w}${b}`)
    .filter((s) => s.includes('*'));

const NUMBERS = fc.oneof(fc.integer({ min: -1000, max: 1000 }).map(String), fc.constantFrom('0.5', '-2.25', '1e3', '.5', '10.', '200', '2.25'));
const KEYS = fc.oneof(
  fc.constantFrom('user_id', 'a.b', 'http.status_code', 'Level', 'n', 'é'),
  fc.string({ unit: fc.constantFrom('a', 'Z', '_', '.', '-', '1', 'é', '\\', "'", '*'), minLength: 1, maxLength: 6 }),
);

export interface Vocabulary {
  text: fc.Arbitrary<string>;
  key: fc.Arbitrary<string>;
  number: fc.Arbitrary<string>;
  /** Values of the exact fields (service, trace_id, ...). */
  exact: fc.Arbitrary<string>;
  /** Durations in milliseconds as the parser answers them (a plain number). */
  ms?: fc.Arbitrary<string>;
}

const COMPARISONS = ['>', '>=', '<', '<='] as const;
const MS = fc.constantFrom('0', '1', '200', '250', '600', '0.5', '1000', '2.25');

/** Valid search trees of a kind's map over a vocabulary. */
export function searchTreeOf(map: SearchMap, v: Vocabulary): fc.Arbitrary<SearchNode> {
  const textNode: fc.Arbitrary<SearchNode> = fc.oneof(
    v.text.map((value) => ({ type: 'text' as const, value, wildcard: false })),
    wildFrom(v.text)
      .filter((t) => bareText(t, map))
      .map((value) => ({ type: 'text' as const, value, wildcard: true })),
  );
  const fieldValue = (text: fc.Arbitrary<string>) =>
    fc.oneof(
      { weight: 3, arbitrary: text.map((value) => ({ op: '=' as const, value, wildcard: false })) },
      wildFrom(text)
        .filter(bareValue)
        .map((value) => ({ op: '=' as const, value, wildcard: true })),
      fc.constant({ op: 'exists' as const, value: '', wildcard: false }),
    );
  const named = (field: string) => (value: { op: string; value: string; wildcard: boolean }) => ({ type: 'field', field, ...value }) as SearchNode;
  const ofField = Object.entries(map.fields).flatMap(([field, def]): fc.Arbitrary<SearchNode>[] => {
    switch (def.match) {
      case 'ordered':
        return [fc.record({ value: fc.constantFrom(...def.values), op: fc.constantFrom('=', ...COMPARISONS), wildcard: fc.constant(false) }).map(named(field))];
      case 'oneOf':
        return [fc.record({ value: fc.constantFrom(...def.values), op: fc.constant('='), wildcard: fc.constant(false) }).map(named(field))];
      case 'duration':
        return [fc.record({ value: v.ms ?? MS, op: fc.constantFrom('=', ...COMPARISONS), wildcard: fc.constant(false) }).map(named(field))];
      case 'key':
        return []; // parsed as its keyed field's key
      case 'absent':
        return []; // refused by the parser
      default:
        return [fieldValue(def.match === 'text' ? v.text : v.exact).map(named(field))];
    }
  });
  const ofKey = Object.values(map.keyed).map((k) =>
    fc
      .record({
        key: v.key,
        v: fc.oneof(fieldValue(fc.oneof(v.text, v.number)), fc.record({ op: fc.constantFrom(...COMPARISONS), value: v.number, wildcard: fc.constant(false) })),
      })
      .map(({ key, v: value }) => ({ type: 'field' as const, field: k.name, key, ...(value as { op: '='; value: string; wildcard: boolean }) })),
  );
  const fieldNode: fc.Arbitrary<SearchNode> = fc.oneof(...ofField, ...ofKey);
  return fc.letrec<{ node: SearchNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      textNode,
      fieldNode,
      tie('node').map((child) => ({ type: 'not' as const, child })),
      fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((children) => ({ type: 'and' as const, children })),
      fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((children) => ({ type: 'or' as const, children })),
    ),
  })).node;
}

/** Valid search trees of a kind's map over any text. */
export const searchTree = (map: SearchMap) => searchTreeOf(map, { text: anyText, key: KEYS, number: NUMBERS, exact: anyText });

/** Any input a person could type, biased to the syntax's own characters. */
export const anyInput = fc.oneof(
  anyText,
  fc
    .array(fc.oneof(anyText, fc.constantFrom('level:>=warn', 'service:check*', '-x', 'NOT', 'OR', 'AND', '(', ')', '"', 'metadata.user_id:u_1042', 'key:*')), {
      maxLength: 8,
    })
    .map((a) => a.join(' ')),
);
