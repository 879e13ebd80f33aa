import fc from 'fast-check';
import { bareText, bareValue, SEARCH_FIELDS, type SearchNode } from '../src/log/search/syntax.ts';
import { logLevels } from '../src/log/event.ts';

// Generators of valid search trees (what the parser can produce) for the search syntax's
// property tests: every field, operator and quoting case, with text full of the characters
// the syntax gives a meaning to.

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
}

const exactFields = Object.keys(SEARCH_FIELDS).filter((f) => f !== 'level') as Array<Exclude<keyof typeof SEARCH_FIELDS, 'level'>>;

/** Valid search trees over a vocabulary. */
export function searchTreeOf(v: Vocabulary): fc.Arbitrary<SearchNode> {
  const textNode: fc.Arbitrary<SearchNode> = fc.oneof(
    v.text.map((value) => ({ type: 'text' as const, value, wildcard: false })),
    wildFrom(v.text)
      .filter(bareText)
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
  const fieldNode: fc.Arbitrary<SearchNode> = fc.oneof(
    fc.record({ level: fc.constantFrom(...logLevels), op: fc.constantFrom('=', '>', '>=', '<', '<=') }).map(({ level, op }) => ({
      type: 'field' as const,
      field: 'level' as const,
      op: op as '=',
      value: level,
      wildcard: false,
    })),
    fc.record({ field: fc.constantFrom(...exactFields), v: fieldValue(v.exact) }).map(({ field, v: value }) => ({ type: 'field' as const, field, ...value })),
    fc
      .record({
        key: v.key,
        v: fc.oneof(fieldValue(fc.oneof(v.text, v.number)), fc.record({ op: fc.constantFrom('>', '>=', '<', '<='), value: v.number, wildcard: fc.constant(false) })),
      })
      .map(({ key, v: value }) => ({ type: 'field' as const, field: 'metadata' as const, key, ...(value as { op: '='; value: string; wildcard: boolean }) })),
  );
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

/** Valid search trees over any text. */
export const searchTree = searchTreeOf({ text: anyText, key: KEYS, number: NUMBERS, exact: anyText });

/** Any input a person could type, biased to the syntax's own characters. */
export const anyInput = fc.oneof(
  anyText,
  fc
    .array(fc.oneof(anyText, fc.constantFrom('level:>=warn', 'service:check*', '-x', 'NOT', 'OR', 'AND', '(', ')', '"', 'metadata.user_id:u_1042', 'key:*')), {
      maxLength: 8,
    })
    .map((a) => a.join(' ')),
);
