import { Failure } from '@devtrail/failures';

// The relational-store role. Two implementations stand behind it: PostgreSQL (pg) for
// the distributed mode and PGlite in-process for the embedded mode. The shared suite in
// test/relational-store.contract.ts runs against both.

export interface SqlExecutor {
  /** Runs one parameterised statement ($1, $2, ...) and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface RelationalStore extends SqlExecutor {
  readonly kind: 'postgres' | 'pglite';
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Subscribes to NOTIFY on a channel. `onReset` runs whenever notifications may have
   * been missed (the listening connection was lost and re-established), so callers
   * drop whatever they cache.
   */
  listen(channel: string, onNotify: (payload: string) => void, onReset?: () => void): Promise<() => Promise<void>>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The relational store's failures, in devtrail's one vocabulary (contract failure.ts). */
export class RelationalStoreError extends Failure {
  constructor(message: string, retryable: boolean, code?: string) {
    super(message, retryable, 'relational-store', code);
  }
}

// SQLSTATE classes that mean "the server cannot serve this now": connection exception,
// transaction rollback (serialization, deadlock), insufficient resources, operator
// intervention (shutdown, cannot connect now, statement timeout).
const RETRYABLE_CLASSES = new Set(['08', '40', '53', '57']);

/**
 * Any error of a PostgreSQL client as a Failure. Without a SQLSTATE it is the transport
 * (refused, reset, timed out): retryable. With one, only the classes above are.
 */
export function relationalFailure(err: unknown): RelationalStoreError {
  if (err instanceof RelationalStoreError) return err;
  const e = err as { message?: string; code?: unknown };
  const sqlState = typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined;
  const retryable = sqlState === undefined || RETRYABLE_CLASSES.has(sqlState.slice(0, 2));
  return new RelationalStoreError(e?.message ?? String(err), retryable, sqlState);
}

/** Rethrows as a Failure: `promise.catch(rethrowRelational)`. */
export function rethrowRelational(err: unknown): never {
  throw relationalFailure(err);
}
