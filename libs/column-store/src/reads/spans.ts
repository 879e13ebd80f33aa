import type { ColumnStore } from '../column-store.ts';
import { fromChTime } from '../rows.ts';
import { clampLimit, parseJson, rangeOrDefault, type TimeRange } from './time-range.ts';

export interface SpanRecord {
  event_id: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string;
  operation: string;
  start_time: string;
  duration_ms: number;
  status: string;
  service: string;
  environment: string;
  release: string;
  metadata: unknown;
}

const SPAN_COLUMNS = `event_id, trace_id, span_id, parent_span_id, operation, start_time,
  duration_ms, status, service, environment, release, metadata`;

type SpanRow = Omit<SpanRecord, 'metadata' | 'duration_ms'> & { metadata: string; duration_ms: string | number };
const toSpan = (r: SpanRow): SpanRecord => ({ ...r, start_time: fromChTime(r.start_time), duration_ms: Number(r.duration_ms), metadata: parseJson(r.metadata) });

/** Every span of one trace, in start order: one contiguous read of the sorting key. */
export async function readTrace(store: ColumnStore, projectId: string, traceId: string): Promise<SpanRecord[]> {
  const rows = await store.query<SpanRow>(
    `SELECT ${SPAN_COLUMNS} FROM spans FINAL
      WHERE project_id = {project:String} AND trace_id = {trace:String}
      ORDER BY start_time, span_id LIMIT 10000`,
    { project: projectId, trace: traceId },
  );
  return rows.map(toSpan);
}

/** Spans in a time range, newest first, optionally of one operation or root spans only. */
export async function readSpans(
  store: ColumnStore,
  f: { projectId: string; range?: Partial<TimeRange>; operation?: string; rootsOnly?: boolean; limit?: number },
): Promise<SpanRecord[]> {
  const range = rangeOrDefault(f.range);
  const rows = await store.query<SpanRow>(
    `SELECT ${SPAN_COLUMNS} FROM spans FINAL
      WHERE project_id = {project:String}
        AND start_time >= fromUnixTimestamp64Milli({from:Int64}) AND start_time <= fromUnixTimestamp64Milli({to:Int64})
        ${f.operation ? 'AND operation = {operation:String}' : ''}
        ${f.rootsOnly ? "AND parent_span_id = ''" : ''}
      ORDER BY start_time DESC LIMIT {limit:UInt32}`,
    { project: f.projectId, from: range.fromMs, to: range.toMs, operation: f.operation ?? '', limit: clampLimit(f.limit) },
  );
  return rows.map(toSpan);
}
