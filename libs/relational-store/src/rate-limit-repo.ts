import type { RelationalStore } from './relational-store.ts';
import { leaseWindow } from './window-lease.ts';

// Shared fixed-window counters. A receiver leases a block of tokens at a time (one
// round trip per block, not per request; window-lease.ts).
export function rateLimitRepo(store: RelationalStore) {
  return {
    lease: (keyId: string, windowStart: Date, requested: number, limit: number) =>
      leaseWindow(store, { table: 'rate_limit_windows', key: 'key_id' }, keyId, windowStart, requested, limit),

    /** Drops windows that ended long ago. */
    async prune(olderThan: Date): Promise<void> {
      await store.query('DELETE FROM rate_limit_windows WHERE window_start < $1', [olderThan]);
    },
  };
}

export type RateLimitRepo = ReturnType<typeof rateLimitRepo>;
