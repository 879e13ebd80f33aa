import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printSearch, SearchSyntaxError, SEARCH_LIMITS, type SearchNode } from '../src/search/syntax.ts';
import { orderedFrom, searchSql } from '../src/search/sql.ts';
import type { SearchMap } from '../src/search/fields.ts';
import { ERROR_SEARCH, LLM_SEARCH, LOG_SEARCH, logLevels, parseSearch as parseWith, SPAN_SEARCH } from '../src/index.ts';
import { anyInput, searchTree } from './search-arbitraries.ts';
import { runs } from '../../../test/support/property.ts';

// The search syntax (docs/dashboard.md): the parser and printer agree on every tree of every
// kind's map, no input makes the parser fail other than with a readable SearchSyntaxError, and
// the SQL of any search carries every typed value as a query parameter, never as text. What the
// SQL selects is held to a reference reading of the syntax over chdb (search-sql.test.ts).

const MAPS: Record<string, SearchMap> = { logs: LOG_SEARCH, spans: SPAN_SEARCH, errors: ERROR_SEARCH, llm: LLM_SEARCH };
/** The logs' search, whose examples docs/dashboard.md gives. */
const parseSearch = (q: string) => parseWith(q, LOG_SEARCH);
const levelsFrom = (level: string, op: '>' | '>=' | '<' | '<=') => orderedFrom(logLevels, level, op);

const text = (value: string, wildcard = false): SearchNode => ({ type: 'text', value, wildcard });
const field = (f: string, value: string, op = '=', extra: Record<string, unknown> = {}): SearchNode =>
  ({ type: 'field', field: f, op, value, wildcard: false, ...extra }) as SearchNode;

describe('search syntax', () => {
  it('reads the documented examples', () => {
    expect(parseSearch('')).toBeNull();
    expect(parseSearch('   ')).toBeNull();
    expect(parseSearch('timeout')).toEqual(text('timeout'));
    expect(parseSearch('"connection reset" -level:debug')).toEqual({
      type: 'and',
      children: [text('connection reset'), { type: 'not', child: field('level', 'debug') }],
    });
    expect(parseSearch('metadata.user_id:u_1042')).toEqual(field('metadata', 'u_1042', '=', { key: 'user_id' }));
    expect(parseSearch('user_id:u_1042')).toEqual(field('metadata', 'u_1042', '=', { key: 'user_id' }));
    expect(parseSearch('level:>=warn')).toEqual(field('level', 'warn', '>='));
    expect(parseSearch('Level:WARN')).toEqual(field('level', 'warn'));
    expect(parseSearch('env:prod service:check*')).toEqual({
      type: 'and',
      children: [field('environment', 'prod'), { type: 'field', field: 'service', op: '=', value: 'check*', wildcard: true }],
    });
    expect(parseSearch('metadata.ms:>500')).toEqual(field('metadata', '500', '>', { key: 'ms' }));
    expect(parseSearch('request_id:*')).toEqual(field('request_id', '', 'exists'));
    expect(parseSearch('(a OR b) NOT c')).toEqual({
      type: 'and',
      children: [
        { type: 'or', children: [text('a'), text('b')] },
        { type: 'not', child: text('c') },
      ],
    });
    expect(parseSearch('a AND b OR c')).toEqual({ type: 'or', children: [{ type: 'and', children: [text('a'), text('b')] }, text('c')] });
    expect(parseSearch('GET https://shop.example.com/cart')).toEqual({ type: 'and', children: [text('GET'), text('https://shop.example.com/cart')] });
    expect(parseSearch('say:"a \\"quoted\\" word"')).toEqual(field('metadata', 'a "quoted" word', '=', { key: 'say' }));
    expect(parseSearch('or ORDER -')).toEqual({ type: 'and', children: [text('or'), text('ORDER'), text('-')] });
  });

  it('explains what is wrong, and where', () => {
    const error = (q: string) => {
      try {
        parseSearch(q);
      } catch (err) {
        expect(err).toBeInstanceOf(SearchSyntaxError);
        return (err as Error).message;
      }
      throw new Error(`parsed: ${q}`);
    };
    expect(error('"open')).toBe('a quote is not closed (at character 1)');
    expect(error('(a b')).toBe('a "(" is not closed (at character 1)');
    expect(error('a)')).toBe('a ")" has no "(" before it (at character 2)');
    expect(error('level:loud')).toBe('level is one of debug, info, warn, error, not "loud" (at character 1)');
    expect(error('service:>a')).toBe('service cannot be compared with >: only level and metadata numbers can (at character 1)');
    expect(error('metadata.ms:>fast')).toBe('metadata.ms> needs a number, not "fast" (at character 1)');
    expect(error('metadata.ms:>1e999')).toBe('metadata.ms> needs a number, not "1e999" (at character 1)');
    expect(error('a OR')).toBe('"OR" has no term after it (at character 5)');
    expect(error('service: x')).toBe('a value is missing after "service:" (at character 1)');
    expect(error('x'.repeat(SEARCH_LIMITS.length + 1))).toContain('longer than');
    expect(error(Array.from({ length: SEARCH_LIMITS.terms + 1 }, (_, i) => `w${i}`).join(' '))).toContain(`more than ${SEARCH_LIMITS.terms} terms`);
    expect(error(`${'('.repeat(SEARCH_LIMITS.depth + 1)}a${')'.repeat(SEARCH_LIMITS.depth + 1)}`)).toContain('nested deeper');
    expect(error(`${'-'.repeat(SEARCH_LIMITS.depth + 1)}a`)).toContain('nested deeper');
    // The review's search: 64 dotted-key wildcards OR'd (each a JSON parse of every row, twice).
    const hostile = Array.from({ length: 64 }, (_, i) => `a.b:*z${i}*`).join(' OR ');
    expect(error(hostile)).toBe('more than 8 metadata keys (a key with dots counts twice) (at character 49)');
    expect(error(Array.from({ length: 9 }, (_, i) => `w${i}*`).join(' '))).toBe('more than 8 terms with a * wildcard (at character 33)');
    expect(parseSearch(Array.from({ length: 4 }, (_, i) => `a.b:*z${i}*`).join(' OR '))).not.toBeNull();
  });

  it.each(Object.entries(MAPS))('prints every tree of the %s map as text that parses back to the same tree', (_kind, map) => {
    fc.assert(
      fc.property(searchTree(map), (tree) => {
        const printed = printSearch(tree, map);
        fc.pre(printed.length <= SEARCH_LIMITS.length);
        let parsed: SearchNode | null;
        try {
          parsed = parseWith(printed, map);
        } catch (err) {
          // A tree past the cost limits (metadata keys, wildcards) is refused, as it should be.
          fc.pre(!/more than \d+ (metadata keys|terms with a \* wildcard)/.test((err as Error).message));
          throw err;
        }
        expect(parsed).toEqual(tree);
      }),
      { numRuns: runs(1500) },
    );
  });

  it('answers any input with a tree or a SearchSyntaxError, and its canonical text means the same', () => {
    fc.assert(
      fc.property(anyInput, (input) => {
        let tree: SearchNode | null;
        try {
          tree = parseSearch(input);
        } catch (err) {
          expect(err).toBeInstanceOf(SearchSyntaxError);
          expect((err as SearchSyntaxError).position).toBeGreaterThanOrEqual(0);
          return;
        }
        expect(parseSearch(printSearch(tree, LOG_SEARCH))).toEqual(tree);
      }),
      { numRuns: runs(5000) },
    );
  });
});

describe('search SQL', () => {
  // Literals the compiler itself writes (JSON type names); anything else quoted would be input.
  const OWN_LITERALS = new Set(["'String'", "'Int64'", "'UInt64'", "'Double'", "'Bool'", "'Null'"]);

  it.each(Object.entries(MAPS))('carries every typed value of a %s search as a parameter: the SQL text holds only its own words', (_kind, map) => {
    fc.assert(
      fc.property(searchTree(map), (tree) => {
        const { where, params } = searchSql(tree, map);
        const placeholders = [...where.matchAll(/\{(sq\d+):(String|Float64|UInt8|Array\(String\))\}/g)].map((m) => m[1]);
        expect(new Set(placeholders)).toEqual(new Set(Object.keys(params)));
        const bare = where.replace(/\{sq\d+:(String|Float64|UInt8|Array\(String\))\}/g, '?');
        for (const literal of bare.match(/'[^']*'/g) ?? []) expect(OWN_LITERALS).toContain(literal);
        expect(bare.replace(/'[^']*'/g, '')).toMatch(/^[A-Za-z0-9_(),?<>=! ]*$/);
      }),
      { numRuns: runs(1500) },
    );
  });

  it('orders levels by severity for comparisons', () => {
    expect(levelsFrom('warn', '>=')).toEqual(['warn', 'error']);
    expect(levelsFrom('warn', '<')).toEqual(['debug', 'info']);
    expect(levelsFrom('error', '>')).toEqual([]);
  });
});
