import { clampLimit, rangeOrDefault, withinRetention, type ColumnStore, type TimeRange } from '@devtrail/column-store';
import { span } from './index.ts';
import type { SpanRecord } from './read.ts';

// Trace search: root spans started in the range, by root operation (case-insensitive part),
// duration, a service any of the trace's spans ran in, and the trace's status (error when
// any span failed), newest first; each with its span count, errors and services.

/** How far a trace's other spans may start from its root's range (a long trace, clock skew). */
const TRACE_SLACK_MS = 3600_000;

export interface TraceSearch {
  projectId: string;
  /** The project's retention of the kind: older rows are never returned (docs/data.md). */
  retentionDays: number;
  range?: Partial<TimeRange>;
  operation?: string;
  service?: string;
  minDurationMs?: number;
  maxDurationMs?: number;
  status?: 'ok' | 'error';
  limit?: number;
}

export type TraceSummary = SpanRecord & { span_count: number; error_count: number; services: string[] };

export async function searchTraces(store: ColumnStore, f: TraceSearch): Promise<TraceSummary[]> {
  const range = rangeOrDefault(f.range);
  const params: Record<string, unknown> = {
    project: f.projectId,
    from: range.fromMs,
    to: range.toMs,
    wideFrom: range.fromMs - TRACE_SLACK_MS,
    wideTo: range.toMs + TRACE_SLACK_MS,
    error: 'error',
    limit: clampLimit(f.limit),
    retention: f.retentionDays,
  };
  const where = [
    'project_id = {project:String}',
    'start_time >= fromUnixTimestamp64Milli({from:Int64}) AND start_time <= fromUnixTimestamp64Milli({to:Int64})',
    "parent_span_id = ''",
    withinRetention(span.tableDef.ttlColumn),
  ];
  // Traces with a span matching `cond`, among the spans around the range.
  const tracesWith = (cond: string) =>
    `trace_id IN (SELECT trace_id FROM ${span.name} WHERE project_id = {project:String}
       AND start_time >= fromUnixTimestamp64Milli({wideFrom:Int64}) AND start_time <= fromUnixTimestamp64Milli({wideTo:Int64}) AND ${cond})`;
  const add = (clause: string, name: string, value: unknown) => {
    where.push(clause);
    params[name] = value;
  };
  if (f.operation) add('positionCaseInsensitiveUTF8(operation, {operation:String}) > 0', 'operation', f.operation);
  if (f.minDurationMs !== undefined) add('duration_ms >= {min:UInt64}', 'min', f.minDurationMs);
  if (f.maxDurationMs !== undefined) add('duration_ms <= {max:UInt64}', 'max', f.maxDurationMs);
  if (f.service) add(tracesWith('service = {service:String}'), 'service', f.service);
  if (f.status === 'error') where.push(tracesWith('status = {error:String}'));
  if (f.status === 'ok') where.push(`NOT ${tracesWith('status = {error:String}')}`);
  const roots = (
    await store.query<Record<string, unknown>>(
      `SELECT ${span.recordColumns.join(', ')} FROM ${span.name} FINAL WHERE ${where.join(' AND ')} ORDER BY start_time DESC LIMIT {limit:UInt32}`,
      params,
    )
  ).map((r) => span.toRecord(r) as SpanRecord);
  if (roots.length === 0) return [];
  const stats = await store.query<{ trace_id: string; spans: string | number; errors: string | number; services: string[] }>(
    `SELECT trace_id, count() AS spans, countIf(status = {error:String}) AS errors, arraySort(groupUniqArray(service)) AS services
       FROM ${span.name} FINAL
      WHERE project_id = {project:String} AND trace_id IN {ids:Array(String)}
      GROUP BY trace_id`,
    { project: f.projectId, error: 'error', ids: [...new Set(roots.map((r) => r.trace_id))] },
  );
  const byTrace = new Map(stats.map((s) => [s.trace_id, s]));
  return roots.map((r) => {
    const s = byTrace.get(r.trace_id);
    return { ...r, span_count: Number(s?.spans ?? 1), error_count: Number(s?.errors ?? 0), services: s?.services ?? [r.service] };
  });
}
