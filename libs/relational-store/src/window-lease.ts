import type { SqlExecutor } from './relational-store.ts';

// One lease of a shared fixed window (the per-key rate limit, the per-project quotas): `used`
// counts what was asked for, so the grant is whatever of the request still fits under the
// limit. Table and key column are the callers' constants, never input.
export async function leaseWindow(
  store: SqlExecutor,
  window: { table: 'rate_limit_windows' | 'quota_windows'; key: 'key_id' | 'scope' },
  key: string,
  windowStart: Date,
  requested: number,
  limit: number,
): Promise<{ granted: number; used: number }> {
  const [row] = await store.query<{ used: string | number }>(
    `INSERT INTO ${window.table} (${window.key}, window_start, used) VALUES ($1, $2, $3)
     ON CONFLICT (${window.key}, window_start) DO UPDATE SET used = ${window.table}.used + EXCLUDED.used
     RETURNING used`,
    [key, windowStart, requested],
  );
  const used = Number(row.used);
  const before = used - requested;
  return { granted: Math.max(0, Math.min(requested, limit - before)), used: Math.min(used, limit) };
}
