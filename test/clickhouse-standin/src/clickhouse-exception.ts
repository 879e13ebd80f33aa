import behaviour from './server-behaviour.json' with { type: 'json' };

// A ClickHouse exception as the server's HTTP handler reports it: the body
// clickhouse-js parses into ClickHouseError { code, type }, and the status.
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

  // ClickHouse's src/Server/HTTP/exceptionCodeToHTTPStatus.cpp; anything else is 500.
  get httpStatus(): number {
    for (const [status, codes] of STATUS_CODES) if (codes.includes(this.code)) return status;
    return 500;
  }
}

const STATUS_CODES = Object.entries(behaviour.httpStatus).map(([status, codes]) => [Number(status), codes] as const);

// What the stand-in refuses itself, with the server's codes for it.
export const notImplemented = (message: string) => new ClickHouseException(48, 'NOT_IMPLEMENTED', message);

const CODE_PREFIX = /Code: (\d+)\. DB::Exception: /;
// chdb wraps some errors twice: `Code: N. DB::Exception: Code: N. DB::Exception:
// <inner>. (NAME) (version V). (NAME)`; the inner text is what a server sends.
const DOUBLE_WRAP = /^Code: (\d+)\. DB::Exception: (Code: \1\. DB::Exception: [\s\S]*?) \(version [^)]*\)\. \([A-Z0-9_]+\)$/;
const TRAILER = /\.? \(([A-Z][A-Z0-9_]*)\)\s*$/;

// An error from chdb (its message is the engine's `Code: N. DB::Exception: ...
// (NAME)` text) as the exception a server would report; other errors become
// STD_EXCEPTION, as unexpected C++ exceptions do on a server.
export function fromEngineError(error: unknown): ClickHouseException {
  if (error instanceof ClickHouseException) return error;
  let text = error instanceof Error ? error.message : String(error);
  const start = text.search(CODE_PREFIX);
  if (start < 0) return new ClickHouseException(1001, 'STD_EXCEPTION', text.trim());
  text = text.slice(start).trim();
  for (let m = DOUBLE_WRAP.exec(text); m; m = DOUBLE_WRAP.exec(text)) text = m[2];
  const code = Number(CODE_PREFIX.exec(text)![1]);
  const body = text.replace(CODE_PREFIX, '');
  const trailer = TRAILER.exec(body);
  return trailer ? new ClickHouseException(code, trailer[1], body.slice(0, trailer.index)) : new ClickHouseException(code, 'UNKNOWN_EXCEPTION', body);
}
