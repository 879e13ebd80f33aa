import { describe, expect, it } from 'vitest';
import { errorSearchSql, llmSearch, parseSearch, parseSpanSearch, SearchSyntaxError } from '@devtrail/kinds';
import { searchSql } from '../src/log/search/sql.ts';
import { spanSearchSql } from '../src/span/search-dialect.ts';
import { llmWhere } from '../src/llm/call-filter.ts';

// Every search compiler with what a user may type that a plain object lookup or a float would
// get wrong (docs/dashboard.md, "Search syntax"): names of Object.prototype as keys, and numbers
// past 2^53, which no engine binds exactly.

const PROTO_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

const compilers = {
  logs: (q: string) => searchSql(parseSearch(q)!),
  errors: (q: string) => errorSearchSql(parseSearch(q)!),
  spans: (q: string) => spanSearchSql(parseSpanSearch(q)!),
  llm: (q: string) => {
    const { where, params } = llmWhere({ projectId: 'p', retentionDays: 30, search: llmSearch(parseSearch(q)!) }, { fromMs: 0, toMs: 1 });
    return { where: where.join(' AND '), params };
  },
};

/** Every number a compiled search binds is one an engine takes exactly. */
const numbersExact = (params: Record<string, unknown>) => Object.values(params).every((v) => typeof v !== 'number' || Math.abs(v) <= Number.MAX_SAFE_INTEGER);

describe.each(Object.entries(compilers))('the %s search compiler', (_name, compile) => {
  it.each(PROTO_NAMES)('takes %s: as a key the user typed, never a function of Object.prototype', (key) => {
    for (const q of [`${key}:x`, `${key}:*`, `-${key}:"a b"`, `metadata.${key}:1`]) {
      const { where, params } = compile(q);
      expect(where).not.toMatch(/function|native code|\[object/);
      expect(Object.values(params)).toContain(key);
    }
  });

  it('answers a number past 2^53 as written, digit for digit (no float in between)', () => {
    const { params } = compile('metadata.id:12345678901234567890');
    expect(numbersExact(params)).toBe(true);
    expect(Object.values(params)).toContain('12345678901234567890');
  });
});

describe('comparisons past 2^53', () => {
  it('are refused with the reason, in every dialect', () => {
    for (const parse of [parseSearch, parseSpanSearch])
      for (const q of ['metadata.id:>12345678901234567890', 'metadata.n:<=-9007199254740993', 'metadata.n:>1e300']) {
        expect(() => parse(q)).toThrow(SearchSyntaxError);
        expect(() => parse(q)).toThrow(/compares numbers up to 2\^53 \(9007199254740991\) exactly/);
      }
    expect(() => parseSpanSearch('duration:>99999999999999999999')).toThrow(/duration is at most 2\^53 ms/);
  });

  it('are taken up to 2^53', () => {
    const { params } = compilers.logs('metadata.n:>9007199254740991');
    expect(Object.values(params)).toContain(9007199254740991);
  });
});
