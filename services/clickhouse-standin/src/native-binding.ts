import { createRequire } from 'node:module';

// The raw result objects of chdb's native addon (the layer under chdb's Session).
export interface NativeQueryResult {
  bytes: Uint8Array;
  elapsed: number;
  rowsRead: number;
  bytesRead: number;
}

export interface NativeInsertResult {
  elapsed: number;
  rowsWritten: number;
  bytesWritten: number;
}

export interface NativeBinding {
  QueryAsyncConnection(
    connection: unknown,
    sql: string,
    format: string,
    params?: Record<string, string>,
  ): Promise<NativeQueryResult>;
  InsertRawAsyncConnection(
    connection: unknown,
    statement: string,
    data: Buffer,
    countLines: boolean,
  ): Promise<NativeInsertResult>;
}

// Why not Session.queryBindAsync / Session.insert: both re-serialise JS values.
// Over HTTP, `param_*` values already arrive in the engine's own text form
// (clickhouse-js TSV-escapes strings, quotes array elements), so they must reach
// the engine's server-side binding byte for byte; and an INSERT statement from
// the wire (quoted names, `(* EXCEPT (...))`, SETTINGS, any format) must be kept
// as written rather than rebuilt from table/columns. These two entry points are
// exactly what those Session methods call, minus the re-serialisation.
export function loadNativeBinding(): NativeBinding {
  const requireFromHere = createRequire(import.meta.url);
  const requireFromChdb = createRequire(requireFromHere.resolve('chdb/package.json'));
  const native = requireFromChdb('./dist/loader.js').loadNative() as Partial<NativeBinding>;
  if (typeof native.QueryAsyncConnection !== 'function' || typeof native.InsertRawAsyncConnection !== 'function') {
    throw new Error('clickhouse-standin: this chdb build lacks QueryAsyncConnection/InsertRawAsyncConnection');
  }
  return native as NativeBinding;
}
