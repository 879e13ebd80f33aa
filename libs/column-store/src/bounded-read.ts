import { LimitReached } from '@devtrail/failures';
import { ColumnStoreError, type ColumnStore } from './column-store.ts';
import { READ_LIMIT_CODES, readSettings, type QuerySettings, type ReadClass, type ReadLimits } from './read-limits.ts';

// The one read path (docs/api.md, "Read limits"): every adapter's `query` runs here, so every read
// of every service, whatever wraps the store (metrics, a test's counting), carries the read
// limits, and a read the engine stopped is told for what it is: too slow, a 503 with Retry-After
// (the machine may be busier than the read is dear); too much to scan, a 400 (narrow the time
// range or the search: trying again cannot help).

export const READ_TIMEOUT = (ms: number) => `The read took longer than its limit (${ms} ms, READ_MAX_EXECUTION_MS): narrow the time range or the search, or retry later`;
export const READ_TOO_LARGE = 'The read would scan more than its limit (READ_MAX_ROWS_TO_READ, READ_MAX_BYTES_TO_READ): narrow the time range or the search';

/** Runs one read with the settings of `limits` for its class; a read the limits stopped fails with a LimitReached. */
export async function boundedRead<T>(limits: ReadLimits, read: ReadClass | undefined, run: (settings: QuerySettings) => Promise<T>): Promise<T> {
  try {
    return await run(readSettings(limits, read ?? 'lookup'));
  } catch (err) {
    if (err instanceof ColumnStoreError) {
      if (err.code === READ_LIMIT_CODES.timeout)
        throw new LimitReached(READ_TIMEOUT(limits.maxExecutionMs), true, 'column-store', err.code, {
          expected: 'a faster read',
          received: 'a read past the time limit',
        });
      if (err.code === READ_LIMIT_CODES.rows || err.code === READ_LIMIT_CODES.bytes)
        throw new LimitReached(READ_TOO_LARGE, false, 'column-store', err.code, { expected: 'a narrower read', received: 'a read past the limits' });
    }
    throw err;
  }
}

/** The store whose reads take this place in the queue (a search waits behind lookups); the limits stay the store's. */
export function readsAs(store: ColumnStore, read: ReadClass): ColumnStore {
  return { ...store, query: (sql, params) => store.query(sql, params, read) };
}
