import { ColumnStoreError, READ_LIMIT_CODES, readSettings, type ColumnStore, type ReadLimits } from '@devtrail/column-store';
import { badRequest, httpError, RETRY_AFTER_SECONDS } from '@devtrail/http';

// The column store as the read API and the explorer see it: every query under the read limits
// (docs/api.md, "Read limits"), and a read the engine stopped answered for what it is: too slow
// → 503 with Retry-After (the machine may be busier than the read is dear); too much to scan →
// 400 (narrow the range or the search: trying again cannot help).

export const READ_TIMEOUT = (ms: number) => `The read took longer than its limit (${ms} ms, READ_MAX_EXECUTION_MS): narrow the time range or the search, or retry later`;
export const READ_TOO_LARGE = 'The read would scan more than its limit (READ_MAX_ROWS_TO_READ, READ_MAX_BYTES_TO_READ): narrow the time range or the search';

/** `kind`: lookups run before searches where one engine connection serves every read (READ_PRIORITY). */
export function boundedReads(store: ColumnStore, limits: ReadLimits, kind: 'lookup' | 'search' = 'lookup'): ColumnStore {
  const settings = readSettings(limits, kind);
  return {
    ...store,
    query: <T>(sql: string, params?: Record<string, unknown>, opts?: { settings?: Record<string, number> }) =>
      store.query<T>(sql, params, { settings: { ...settings, ...opts?.settings } }).catch((err: unknown) => {
        if (err instanceof ColumnStoreError) {
          if (err.code === READ_LIMIT_CODES.timeout) throw httpError(503, READ_TIMEOUT(limits.maxExecutionMs), { 'retry-after': String(RETRY_AFTER_SECONDS) });
          if (err.code === READ_LIMIT_CODES.rows || err.code === READ_LIMIT_CODES.bytes) throw badRequest(READ_TOO_LARGE, 'a narrower read', 'a read past the limits');
        }
        throw err;
      }),
  };
}
