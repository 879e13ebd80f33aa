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
