import { clampLimit, rangeOrDefault, withinRetention, type ColumnStore, type TimeRange } from '@devtrail/column-store';
import type { RecordOf } from '../kind.ts';
import type { SpanEvent } from './event.ts';
import { span } from './index.ts';

export type SpanRecord = RecordOf<SpanEvent>;

const select = () => `SELECT ${span.recordColumns.join(', ')} FROM ${span.name} FINAL`;

/** Every span of one trace, in start order: one contiguous read of the sorting key. */
export async function readTrace(store: ColumnStore, projectId: string, traceId: string, retentionDays: number): Promise<SpanRecord[]> {
  const rows = await store.query<Record<string, unknown>>(
    `${select()}
      WHERE project_id = {project:String} AND trace_id = {trace:String} AND ${withinRetention(span.tableDef.ttlColumn)}
      ORDER BY start_time, span_id, event_id LIMIT 10000`,
    { project: projectId, trace: traceId, retention: retentionDays },
  );
  return rows.map((r) => span.toRecord(r) as SpanRecord);
}

/** Spans in a time range, newest first, optionally of one operation or root spans only. */
export async function readSpans(
  store: ColumnStore,
  f: { projectId: string; retentionDays: number; range?: Partial<TimeRange>; operation?: string; rootsOnly?: boolean; limit?: number },
): Promise<SpanRecord[]> {
  const range = rangeOrDefault(f.range);
  const rows = await store.query<Record<string, unknown>>(
    `${select()}
      WHERE project_id = {project:String}
        AND start_time >= fromUnixTimestamp64Milli({from:Int64}) AND start_time <= fromUnixTimestamp64Milli({to:Int64})
        AND ${withinRetention(span.tableDef.ttlColumn)}
        ${f.operation ? 'AND operation = {operation:String}' : ''}
        ${f.rootsOnly ? "AND parent_span_id = ''" : ''}
      ORDER BY start_time DESC, event_id DESC LIMIT {limit:UInt32}`,
    { project: f.projectId, from: range.fromMs, to: range.toMs, operation: f.operation ?? '', limit: clampLimit(f.limit), retention: f.retentionDays },
  );
  return rows.map((r) => span.toRecord(r) as SpanRecord);
}
