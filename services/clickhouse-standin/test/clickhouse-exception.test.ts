import { describe, expect, it } from 'vitest';
import { parseError } from '@clickhouse/client';
import { fromEngineError } from '../src/clickhouse-exception.ts';

describe('fromEngineError', () => {
  it('renders engine errors as the server does, parseable by clickhouse-js', () => {
    const exception = fromEngineError(new Error("Query failed: Code: 47. DB::Exception: Unknown expression identifier `x` in scope SELECT x. (UNKNOWN_IDENTIFIER)"));
    expect(exception).toMatchObject({ code: 47, codeName: 'UNKNOWN_IDENTIFIER' });
    const body = exception.render('26.7.2.1');
    expect(body).toBe('Code: 47. DB::Exception: Unknown expression identifier `x` in scope SELECT x. (UNKNOWN_IDENTIFIER) (version 26.7.2.1)\n');
    expect(parseError(body)).toMatchObject({ code: '47', type: 'UNKNOWN_IDENTIFIER' });
  });

  it('unwraps errors chDB reports twice', () => {
    const wrapped =
      "Code: 115. DB::Exception: Code: 115. DB::Exception: Unknown setting 'x'. (UNKNOWN_SETTING) (version 26.7.2.1). (UNKNOWN_SETTING)";
    expect(fromEngineError(new Error(wrapped)).render('v')).toBe("Code: 115. DB::Exception: Unknown setting 'x'. (UNKNOWN_SETTING) (version v)\n");
  });

  it('keeps multi-line messages and falls back for messages without a code', () => {
    const multiLine = fromEngineError(new Error("Code: 27. DB::Exception: Cannot parse input: (at row 1)\n: While executing ParallelParsingBlockInputFormat. (CANNOT_PARSE_INPUT_ASSERTION_FAILED)"));
    expect(multiLine.message).toBe('Cannot parse input: (at row 1)\n: While executing ParallelParsingBlockInputFormat');
    expect(fromEngineError(new Error('boom'))).toMatchObject({ code: 1001, codeName: 'STD_EXCEPTION', message: 'boom' });
  });
});
