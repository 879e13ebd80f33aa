import { Failure } from '@devtrail/failures';
import type { ReadClass } from './read-limits.ts';

// The column-store role. ClickHouse over HTTP (distributed mode) and chdb in-process
// (embedded mode) stand behind it; test/column-store.contract.ts runs against both.

export type QueryParams = Record<string, unknown>;

/** What an insert wrote: bytes as the store counts them (ClickHouse's written_bytes; chdb: the JSONEachRow body). */
export interface InsertResult {
  bytes: number;
}

export interface ColumnStore {
  readonly kind: 'clickhouse' | 'chdb';
  /** Inserts rows as JSONEachRow into a table of the store's database. */
  insert(table: string, rows: ReadonlyArray<Record<string, unknown>>): Promise<InsertResult>;
  /**
   * Inserts rows given as their cells, in the order of `columns` (JSONCompactEachRow): the same
   * rows as `insert` without a key per cell to build and write (the sinks' way, docs/architecture.md).
   */
  insertCells(table: string, columns: readonly string[], rows: ReadonlyArray<readonly unknown[]>): Promise<InsertResult>;
  /**
   * Runs a SELECT with ClickHouse query parameters ({name:Type}); never string-built SQL. Every
   * read runs under the read limits the store was opened with (bounded-read.ts); `read` is its
   * place in the queue (a lookup unless said; a search waits behind lookups). A wrapper passes
   * `read` on; it cannot take the limits off.
   */
  query<T = Record<string, unknown>>(sql: string, params?: QueryParams, read?: ReadClass): Promise<T[]>;
  /** Runs DDL or another statement without a result (a DELETE with query parameters, too). */
  command(sql: string, params?: QueryParams): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The column store's failures, in devtrail's one vocabulary (contract failure.ts): retry later, or never (dead-letter). */
export class ColumnStoreError extends Failure {
  constructor(message: string, retryable: boolean, code?: string) {
    super(message, retryable, 'column-store', code);
  }
}

// ClickHouse codes that mean "this data can never be written as it is" (469: a CHECK constraint the row violates).
const PERMANENT_CODES = new Set(['6', '25', '26', '27', '33', '38', '41', '53', '62', '69', '70', '72', '117', '131', '376', '377', '386', '467', '469', '1001']);

/** A ClickHouse error as a Failure: permanent for the codes above, retryable otherwise. */
export function clickHouseFailure(message: string, code: string | undefined): ColumnStoreError {
  return new ColumnStoreError(message, code === undefined || !PERMANENT_CODES.has(code), code);
}
