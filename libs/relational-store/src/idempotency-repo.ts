import type { RelationalStore } from './relational-store.ts';

// The first receive time of each (project, Idempotency-Key) pair: one upsert per keyed
// request, which returns the time the key was first seen (its own, on a first request).
export function idempotencyRepo(store: RelationalStore) {
  return {
    /** Records `now` as the key's first receive time unless it has one; returns the one that stands. */
    async firstSeen(projectId: string, keyHash: string, now: Date): Promise<Date> {
      // DO UPDATE (to the same value), not DO NOTHING: it waits for a concurrent first
      // request's row and returns it, so two racing copies of a request agree on the time.
      const [row] = await store.query<{ first_seen: Date | string }>(
        `INSERT INTO idempotency_keys (project_id, key_hash, first_seen) VALUES ($1, $2, $3)
         ON CONFLICT (project_id, key_hash) DO UPDATE SET first_seen = idempotency_keys.first_seen
         RETURNING first_seen`,
        [projectId, keyHash, now],
      );
      return new Date(row.first_seen);
    },

    /** Forgets keys first seen before `olderThan`, at most `limit` of them per call. */
    async prune(olderThan: Date, limit = 50_000): Promise<number> {
      const [row] = await store.query<{ n: number }>(
        `WITH gone AS (
           DELETE FROM idempotency_keys WHERE (project_id, key_hash) IN (
             SELECT project_id, key_hash FROM idempotency_keys WHERE first_seen < $1 LIMIT $2)
           RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [olderThan, limit],
      );
      return Number(row.n);
    },
  };
}

export type IdempotencyRepo = ReturnType<typeof idempotencyRepo>;
