import { describe, expect, it } from 'vitest';
import { parseError } from '@clickhouse/client';
import { fromEngineError } from '../src/clickhouse-exception.ts';

describe('fromEngineError', () => {
  it('renders engine errors as the server does, parseable by clickhouse-js, with its HTTP status', () => {
    const exception = fromEngineError(new Error("Code: 60. DB::Exception: Unknown table expression identifier 'nope' in scope SELECT * FROM nope. (UNKNOWN_TABLE)"));
    expect(exception).toMatchObject({ code: 60, codeName: 'UNKNOWN_TABLE', httpStatus: 404 });
    const body = exception.render('26.7.2.1');
    expect(body).toBe("Code: 60. DB::Exception: Unknown table expression identifier 'nope' in scope SELECT * FROM nope. (UNKNOWN_TABLE) (version 26.7.2.1)\n");
    expect(parseError(body)).toMatchObject({ code: '60', type: 'UNKNOWN_TABLE' });
  });

  it('unwraps errors chDB reports twice', () => {
    const wrapped = 'Code: 108. DB::Exception: Code: 108. DB::Exception: No data to insert. (NO_DATA_TO_INSERT) (version 26.7.2.1). (NO_DATA_TO_INSERT)';
    expect(fromEngineError(new Error(wrapped)).render('v')).toBe('Code: 108. DB::Exception: No data to insert. (NO_DATA_TO_INSERT) (version v)\n');
  });

  it('keeps multi-line messages and falls back for messages without a code', () => {
    const multiLine = fromEngineError(
      new Error('Code: 27. DB::Exception: Cannot parse input: (at row 1)\n: While executing ParallelParsingBlockInputFormat. (CANNOT_PARSE_INPUT_ASSERTION_FAILED)'),
    );
    expect(multiLine).toMatchObject({ message: 'Cannot parse input: (at row 1)\n: While executing ParallelParsingBlockInputFormat', httpStatus: 400 });
    expect(fromEngineError(new Error('boom'))).toMatchObject({ code: 1001, codeName: 'STD_EXCEPTION', message: 'boom', httpStatus: 500 });
  });
});
