import { clampLimit, rangeOrDefault, withinRetention, type ColumnStore, type TimeRange } from '@devtrail/column-store';
import type { RecordOf } from '../kind.ts';
import type { MetricEvent } from './event.ts';
import { metric } from './index.ts';

// A metric's data points as they were stored, newest first (docs/api.md#metrics): what a chart's
// step is made of, with its exemplars.

export type MetricPointRecord = RecordOf<MetricEvent>;

export async function readMetricPoints(
  store: ColumnStore,
  q: { projectId: string; retentionDays: number; metric: string; range?: Partial<TimeRange>; limit?: number },
): Promise<MetricPointRecord[]> {
  const range = rangeOrDefault(q.range);
  const rows = await store.query<Record<string, unknown>>(
    `SELECT ${metric.recordColumns.join(', ')} FROM ${metric.name} FINAL
      WHERE project_id = {project:String} AND metric = {metric:String}
        AND time >= fromUnixTimestamp64Milli({from:Int64}) AND time <= fromUnixTimestamp64Milli({to:Int64})
        AND ${withinRetention(metric.tableDef.ttlColumn)}
      ORDER BY time DESC, event_id DESC LIMIT {limit:UInt32}`,
    { project: q.projectId, metric: q.metric, from: range.fromMs, to: range.toMs, limit: clampLimit(q.limit), retention: q.retentionDays },
  );
  return rows.map((r) => metric.toRecord(r) as MetricPointRecord);
}
