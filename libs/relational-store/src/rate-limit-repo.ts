import type { RelationalStore } from './relational-store.ts';

// Shared fixed-window counters. A receiver leases a block of tokens at a time (one
// round trip per block, not per request); `used` counts what was asked for, so the
// grant is whatever of the request still fits under the limit.
export function rateLimitRepo(store: RelationalStore) {
  return {
    async lease(keyId: string, windowStart: Date, requested: number, limit: number): Promise<{ granted: number; used: number }> {
      const [row] = await store.query<{ used: string | number }>(
        `INSERT INTO rate_limit_windows (key_id, window_start, used) VALUES ($1, $2, $3)
         ON CONFLICT (key_id, window_start) DO UPDATE SET used = rate_limit_windows.used + EXCLUDED.used
         RETURNING used`,
        [keyId, windowStart, requested],
      );
      const used = Number(row.used);
      const before = used - requested;
      return { granted: Math.max(0, Math.min(requested, limit - before)), used: Math.min(used, limit) };
    },

    /** Drops windows that ended long ago. */
    async prune(olderThan: Date): Promise<void> {
      await store.query('DELETE FROM rate_limit_windows WHERE window_start < $1', [olderThan]);
    },
  };
}

export type RateLimitRepo = ReturnType<typeof rateLimitRepo>;
