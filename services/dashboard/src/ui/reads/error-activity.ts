import type { ColumnStore } from '@devtrail/column-store';
import { bucketExpr, type Buckets } from './buckets.ts';

/** Occurrences per time bucket of some error groups (the error list's sparklines). */
export async function readErrorActivity(store: ColumnStore, projectId: string, fingerprints: string[], b: Buckets): Promise<Record<string, number[]>> {
  const out: Record<string, number[]> = Object.fromEntries(fingerprints.map((fp) => [fp, new Array<number>(b.count).fill(0)]));
  if (fingerprints.length === 0) return out;
  const rows = await store.query<{ fingerprint: string; b: string | number; n: string | number }>(
    `SELECT toString(fingerprint) AS fingerprint, ${bucketExpr('timestamp')} AS b, uniqExact(event_id) AS n
       FROM errors
      WHERE project_id = {project:String} AND fingerprint IN {fps:Array(FixedString(64))}
        AND timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp <= fromUnixTimestamp64Milli({to:Int64})
      GROUP BY fingerprint, b`,
    { project: projectId, fps: fingerprints, from: b.fromMs, to: b.toMs, step: b.stepMs },
  );
  for (const r of rows) {
    const i = Number(r.b);
    if (out[r.fingerprint] && i >= 0 && i < b.count) out[r.fingerprint][i] = Number(r.n);
  }
  return out;
}
