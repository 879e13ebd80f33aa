import type { RelationalStore } from './relational-store.ts';

// Shared fixed windows of events per scope (a project, a kind and a window length: quotas
// and the spike guard, docs/data.md). Receivers lease blocks of a window's events as they
// do a key's requests (rate-limit-repo.ts): `used` counts what was asked for, the grant is
// whatever of it still fits under the limit.
export function quotaRepo(store: RelationalStore) {
  return {
    async lease(scope: string, windowStart: Date, requested: number, limit: number): Promise<{ granted: number; used: number }> {
      const [row] = await store.query<{ used: string | number }>(
        `INSERT INTO quota_windows (scope, window_start, used) VALUES ($1, $2, $3)
         ON CONFLICT (scope, window_start) DO UPDATE SET used = quota_windows.used + EXCLUDED.used
         RETURNING used`,
        [scope, windowStart, requested],
      );
      const used = Number(row.used);
      const before = used - requested;
      return { granted: Math.max(0, Math.min(requested, limit - before)), used: Math.min(used, limit) };
    },

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
