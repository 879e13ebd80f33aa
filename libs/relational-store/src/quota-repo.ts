import type { RelationalStore } from './relational-store.ts';
import { leaseWindow } from './window-lease.ts';

// Shared fixed windows of events per scope (a project, a kind and a window length: quotas
// and the spike guard, docs/data.md). Receivers lease blocks of a window's events as they
// do a key's requests (rate-limit-repo.ts, window-lease.ts).
export function quotaRepo(store: RelationalStore) {
  return {
    lease: (scope: string, windowStart: Date, requested: number, limit: number) =>
      leaseWindow(store, { table: 'quota_windows', key: 'scope' }, scope, windowStart, requested, limit),

    /** Events leased in a scope's windows that start in [from, to): a recent baseline. */
    async total(scope: string, from: Date, to: Date): Promise<number> {
      const [row] = await store.query<{ n: string | number | null }>(
        'SELECT sum(used) AS n FROM quota_windows WHERE scope = $1 AND window_start >= $2 AND window_start < $3',
        [scope, from, to],
      );
      return Number(row?.n ?? 0);
    },

    /** Drops windows that ended long ago. */
    async prune(olderThan: Date): Promise<void> {
      await store.query('DELETE FROM quota_windows WHERE window_start < $1', [olderThan]);
    },
  };
}

export type QuotaRepo = ReturnType<typeof quotaRepo>;
