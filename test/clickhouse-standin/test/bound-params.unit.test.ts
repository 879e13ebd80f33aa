import { formatQueryParams } from '@clickhouse/client-common';
import { describe, expect, it } from 'vitest';
import { toChdbParam } from '../src/bound-params.ts';

// What clickhouse-js sends for a value, and what the stand-in hands to chdb's
// queryBindAsync (which escapes strings again); end to end in client-compat.
const sent = (value: unknown) => formatQueryParams({ value });

describe('toChdbParam', () => {
  it('gives back a top-level string exactly', () => {
    const tricky = 'it\'s a \\ back\'slash "quoted"\ttab\nnewline\r; DROP TABLE t; --';
    expect(toChdbParam(sent(tricky))).toBe(tricky);
    expect(toChdbParam(sent('\\N'))).toBe('\\N'); // the text, not NULL
  });

  it('maps NULL to null and leaves numbers and dates alone', () => {
    expect(toChdbParam(sent(null))).toBeNull();
    expect(toChdbParam(sent(42))).toBe('42');
    expect(toChdbParam(sent(new Date('2024-05-01T12:00:00.500Z')))).toBe('1714564800.500');
  });

  it("keeps quoted elements quoted, with '' for an escaped quote", () => {
    expect(toChdbParam(sent(['a', "b'c", 'd\\', 'e\tf', null]))).toBe("['a','b''c','d\\','e\tf',NULL]");
  });
});
