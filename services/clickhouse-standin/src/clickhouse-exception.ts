// A ClickHouse exception: numeric code, symbolic name and message, rendered the
// way the server's HTTP handler writes it, which is what clickhouse-js parses.
export class ClickHouseException extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
  ) {
    super(message);
    this.name = 'ClickHouseException';
  }

  // `Code: 60. DB::Exception: <message>. (UNKNOWN_TABLE) (version 26.7.2.1)`
  render(version: string): string {
    return `Code: ${this.code}. DB::Exception: ${this.message}. (${this.codeName}) (version ${version})\n`;
  }
}

// The codes the stand-in raises itself (values from the engine's system.errors).
export const ErrorCode = {
  SYNTAX_ERROR: 62,
  NOT_IMPLEMENTED: 48,
  UNKNOWN_SETTING: 115,
  READONLY: 164,
  TOO_MANY_SIMULTANEOUS_QUERIES: 202,
  ZLIB_INFLATE_FAILED: 354,
  INTO_OUTFILE_NOT_ALLOWED: 358,
  STD_EXCEPTION: 1001,
} as const;

export function clickhouseException(name: keyof typeof ErrorCode, message: string): ClickHouseException {
  return new ClickHouseException(ErrorCode[name], name, message);
}

const CODE_PREFIX = /Code: (\d+)\. DB::Exception: /;
// chdb wraps some errors twice: `Code: N. DB::Exception: Code: N. DB::Exception:
// <inner>. (NAME) (version V). (NAME)`; the inner text is what a server sends.
const DOUBLE_WRAP = /^Code: (\d+)\. DB::Exception: (Code: \1\. DB::Exception: [\s\S]*?) \(version [^)]*\)\. \([A-Z0-9_]+\)$/;
const TRAILER = /\.? \(([A-Z][A-Z0-9_]*)\)\s*$/;

// Turn an engine error (chdb message text, optionally prefixed, e.g. "Query
// failed: Code: 47. ...") into the exception a ClickHouse server would report.
export function fromEngineError(error: unknown): ClickHouseException {
  if (error instanceof ClickHouseException) return error;
  let text = error instanceof Error ? error.message : String(error);
  const start = text.search(CODE_PREFIX);
  if (start < 0) return new ClickHouseException(ErrorCode.STD_EXCEPTION, 'STD_EXCEPTION', text.trim());
  text = text.slice(start).trim();
  for (let m = DOUBLE_WRAP.exec(text); m; m = DOUBLE_WRAP.exec(text)) text = m[2];
  const code = Number(CODE_PREFIX.exec(text)![1]);
  let body = text.replace(CODE_PREFIX, '');
  let codeName = 'UNKNOWN_EXCEPTION';
  const trailer = TRAILER.exec(body);
  if (trailer) {
    codeName = trailer[1];
    body = body.slice(0, trailer.index);
  }
  return new ClickHouseException(code, codeName, body);
}
