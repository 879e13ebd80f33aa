import { describe, expect, it } from 'vitest';
import { ERROR_SEARCH, LLM_SEARCH, LOG_SEARCH, parseSearch as parseWith, SearchSyntaxError, searchSql, SPAN_SEARCH } from '@devtrail/kinds';
import { llmWhere } from '../src/llm/call-filter.ts';

// Every search compiler with what a user may type that a plain object lookup or a float would
// get wrong (docs/dashboard.md, "Search syntax"): names of Object.prototype as keys, and numbers
// past 2^53, which no engine binds exactly.

const PROTO_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];

const parseSearch = (q: string) => parseWith(q, LOG_SEARCH);
const parseSpanSearch = (q: string) => parseWith(q, SPAN_SEARCH);

const compilers = {
  logs: (q: string) => searchSql(parseSearch(q)!, LOG_SEARCH),
  errors: (q: string) => searchSql(parseWith(q, ERROR_SEARCH)!, ERROR_SEARCH),
  spans: (q: string) => searchSql(parseSpanSearch(q)!, SPAN_SEARCH),
  llm: (q: string) => {
    const { where, params } = llmWhere({ projectId: 'p', retentionDays: 30, search: parseWith(q, LLM_SEARCH) }, { fromMs: 0, toMs: 1 });
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
    for (const parse of [parseSearch, parseSpanSearch, (q: string) => parseWith(q, ERROR_SEARCH), (q: string) => parseWith(q, LLM_SEARCH)])
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

describe('a field of a kind’s map', () => {
  it('is searchable by its one line: LLM calls by model (llm/search.ts)', () => {
    const { where, params } = compilers.llm('model:gpt-4o* refund');
    expect(where).toContain('model LIKE {lq0:String}');
    expect(params.lq0).toBe('gpt-4o%');
    expect(() => parseWith('model:>3', LLM_SEARCH)).toThrow('model cannot be compared with >: only metadata numbers can (at character 1)');
  });
});
