import { bucketExpr, type Buckets, type ColumnStore } from '@devtrail/column-store';
import { logLevels } from './event.ts';
import { logWhere, type LogFilter } from './filter.ts';
import { log } from './index.ts';

// The logs explorer's histogram: matching logs per time bucket and level, over the same
// filters as the list (filter.ts), de-duplicated (FINAL) like every count the API reports.

export type LogVolume = Record<(typeof logLevels)[number], number[]>;

/** One series per level, `buckets.count` counts each; the buckets replace the filter's range. */
export async function readLogVolume(store: ColumnStore, f: LogFilter, buckets: Buckets): Promise<LogVolume> {
  const { where, params } = logWhere({ ...f, range: buckets });
  const rows = await store.query<{ b: string | number; level: string; n: string | number }>(
    `SELECT ${bucketExpr('timestamp')} AS b, level, count() AS n
       FROM ${log.name} FINAL
      WHERE ${where.join(' AND ')}
      GROUP BY b, level`,
    { ...params, step: buckets.stepMs },
  );
  const out = Object.fromEntries(logLevels.map((l) => [l, new Array<number>(buckets.count).fill(0)])) as LogVolume;
  for (const r of rows) {
    const i = Number(r.b);
    const series = out[r.level as keyof LogVolume];
    if (series && i >= 0 && i < buckets.count) series[i] = Number(r.n);
  }
  return out;
}
