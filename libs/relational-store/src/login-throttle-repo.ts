import type { RelationalStore } from './relational-store.ts';

// Login attempts, counted per bucket (an address, a username, a username from an address, a
// trusted device) BEFORE the password is checked, so parallel attempts cannot slip past the
// count. Each bucket lets `free` attempts through, then every further attempt sets a growing
// wait (baseMs, doubling, at most maxMs) before the next one is even evaluated. Counted in the
// relational store so the limits hold across dashboard replicas; the row lock of each bucket
// serialises concurrent attempts (docs/security.md#logins). Times are the server's
// clock_timestamp(), not now(): an attempt that waited for a row lock must compare against
// the time it got it, not the time its transaction began.

export interface ThrottleRule {
  free: number;
  baseMs: number;
  maxMs: number;
}

export interface ThrottleBucket {
  key: string;
  rule: ThrottleRule;
}

/** A bucket untouched for this long starts from zero again. */
export const THROTTLE_RESET_MS = 60 * 60 * 1000;

/** The wait set after the n-th counted attempt. */
export function throttleDelayMs(n: number, rule: ThrottleRule): number {
  return n < rule.free ? 0 : Math.min(rule.baseMs * 2 ** (n - rule.free), rule.maxMs);
}

class Blocked extends Error {
  constructor(readonly waitMs: number) {
    super('blocked');
  }
}

export function loginThrottleRepo(store: RelationalStore) {
  return {
    /**
     * Counts one attempt in every bucket, all or nothing: when one of them still waits,
     * nothing is counted and the longest wait (ms) is returned; otherwise 0.
     */
    async take(buckets: ThrottleBucket[]): Promise<number> {
      // Always locked in the same order, so two attempts never wait on each other's rows.
      const sorted = [...buckets].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      try {
        return await store.transaction(async (tx) => {
          const counts: number[] = [];
          let wait = 0;
          for (const b of sorted) {
            await tx.query("INSERT INTO login_throttle (bucket, failures, blocked_until, updated_at) VALUES ($1, 0, 'epoch', now()) ON CONFLICT (bucket) DO NOTHING", [
              b.key,
            ]);
            const [row] = await tx.query<{ failures: number; wait_ms: number; stale: boolean }>(
              `SELECT failures, greatest(0, extract(epoch FROM blocked_until - clock_timestamp()) * 1000)::float8 AS wait_ms,
                      updated_at < clock_timestamp() - $2::float8 * interval '1 millisecond' AS stale
                 FROM login_throttle WHERE bucket = $1 FOR UPDATE`,
              [b.key, THROTTLE_RESET_MS],
            );
            wait = Math.max(wait, Number(row.wait_ms));
            counts.push((row.stale ? 0 : Number(row.failures)) + 1);
          }
          if (wait > 0) throw new Blocked(wait); // rolls the transaction back: nothing counted
          for (const [i, b] of sorted.entries()) {
            await tx.query(
              "UPDATE login_throttle SET failures = $2, blocked_until = clock_timestamp() + $3::float8 * interval '1 millisecond', updated_at = clock_timestamp() WHERE bucket = $1",
              [b.key, counts[i], throttleDelayMs(counts[i], b.rule)],
            );
          }
          return 0;
        });
      } catch (err) {
        if (err instanceof Blocked) return Math.ceil(err.waitMs);
        throw err;
      }
    },

    /** After a successful login: `clear` buckets start over, `undo` buckets forget this one attempt (their waits stay). */
    async succeeded(clear: string[], undo: string[]): Promise<void> {
      for (const key of clear) await store.query('DELETE FROM login_throttle WHERE bucket = $1', [key]);
      for (const key of undo) await store.query('UPDATE login_throttle SET failures = greatest(failures - 1, 0) WHERE bucket = $1', [key]);
    },

    /** Drops buckets nobody touched for THROTTLE_RESET_MS (they would start from zero anyway). */
    async prune(): Promise<number> {
      const rows = await store.query("DELETE FROM login_throttle WHERE updated_at < now() - $1::float8 * interval '1 millisecond' RETURNING 1", [THROTTLE_RESET_MS]);
      return rows.length;
    },
  };
}

export type LoginThrottleRepo = ReturnType<typeof loginThrottleRepo>;
