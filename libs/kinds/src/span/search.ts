import { clampLimit, rangeOrDefault, withinRetention, type ColumnStore, type TimeRange } from '@devtrail/column-store';
import { searchSql } from '../search/sql.ts';
import type { SearchNode } from '../search/syntax.ts';
import { span } from './index.ts';
import type { SpanRecord } from './read.ts';
import { SPAN_SEARCH } from './search-fields.ts';
import { ROOTS_DEF, ROOTS_TABLE } from './roots.ts';

// Trace search (docs/dashboard.md, "Trace search"): root spans started in the range whose
// trace has a span matching the search (search-fields.ts: any span, one span matching the
// whole search), a span of the service (any case) or environment, and the trace's status (error when any
// span failed); by the root's operation part and duration too. Newest first or longest first,
// ties broken by trace id so a page reads the same each time; each with its span count,
// errors and services.

/** How far a trace's other spans may start from its root's range (a long trace, clock skew). */
export const TRACE_SLACK_MS = 3600_000;
/**
 * How long before its start a span may have been received (a client clock ahead of the
 * server's): the spans table is partitioned by receive day, so bounding received_at lets a
 * search over the last hour skip every older day's partition.
 */
export const RECEIVED_BEFORE_START_MS = 24 * 3600_000;

/** The service picker lists at most this many services. */
export const MAX_SERVICES = 500;

export const TRACE_SORTS = ['time', 'duration'] as const;
export type TraceSort = (typeof TRACE_SORTS)[number];

export interface TraceSearch {
  projectId: string;
  /** The project's retention of the kind: older rows are never returned (docs/data.md). */
  retentionDays: number;
  range?: Partial<TimeRange>;
  /** A parsed trace search (search-fields.ts); null or absent: no search. */
  search?: SearchNode | null;
  operation?: string;
  service?: string;
  environment?: string;
  minDurationMs?: number;
  maxDurationMs?: number;
  status?: 'ok' | 'error';
  sort?: TraceSort;
  limit?: number;
}

export type TraceSummary = SpanRecord & { span_count: number; error_count: number; services: string[] };

/** The conditions on spans of the project started within `from`..`to` (parameter names), received no earlier than `received`. */
const spansWithin = (from: string, to: string, received: string) =>
  `project_id = {project:String}
   AND start_time >= fromUnixTimestamp64Milli({${from}:Int64}) AND start_time <= fromUnixTimestamp64Milli({${to}:Int64})
   AND received_at >= fromUnixTimestamp64Milli({${received}:Int64})`;

export async function searchTraces(store: ColumnStore, f: TraceSearch): Promise<TraceSummary[]> {
  const range = rangeOrDefault(f.range);
  const params: Record<string, unknown> = {
    project: f.projectId,
    from: range.fromMs,
    to: range.toMs,
    wideFrom: range.fromMs - TRACE_SLACK_MS,
    wideTo: range.toMs + TRACE_SLACK_MS,
    received: range.fromMs - TRACE_SLACK_MS - RECEIVED_BEFORE_START_MS,
    error: 'error',
    limit: clampLimit(f.limit),
    retention: f.retentionDays,
  };
  // The roots started in the range (roots.ts: the roots in time order)...
  const where = [spansWithin('from', 'to', 'received'), withinRetention(ROOTS_DEF.ttlColumn)];
  // ... of traces with a span matching `cond`, among the spans around the range.
  const tracesWith = (cond: string) => `trace_id IN (SELECT trace_id FROM ${span.name} WHERE ${spansWithin('wideFrom', 'wideTo', 'received')} AND ${cond})`;
  const add = (clause: string, name: string, value: unknown) => {
    where.push(clause);
    params[name] = value;
  };
  if (f.operation) add('positionCaseInsensitiveUTF8(operation, {operation:String}) > 0', 'operation', f.operation);
  if (f.minDurationMs !== undefined) add('duration_ms >= {min:UInt64}', 'min', f.minDurationMs);
  if (f.maxDurationMs !== undefined) add('duration_ms <= {max:UInt64}', 'max', f.maxDurationMs);
  if (f.service) add(tracesWith('lowerUTF8(service) = lowerUTF8({service:String})'), 'service', f.service);
  if (f.environment) add(tracesWith('environment = {environment:String}'), 'environment', f.environment);
  if (f.status === 'error') where.push(tracesWith('status = {error:String}'));
  if (f.status === 'ok') where.push(`NOT ${tracesWith('status = {error:String}')}`);
  if (f.search) {
    const s = searchSql(f.search, SPAN_SEARCH, 'ts');
    where.push(tracesWith(s.where));
    Object.assign(params, s.params);
  }
  const order = f.sort === 'duration' ? 'duration_ms DESC, start_time DESC, trace_id DESC' : 'start_time DESC, trace_id DESC';
  const page = await store.query<{ trace_id: string; event_id: string }>(
    `SELECT trace_id, event_id FROM ${ROOTS_TABLE} FINAL WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT {limit:UInt32}`,
    params,
  );
  if (page.length === 0) return [];
  const ids = [...new Set(page.map((r) => r.trace_id))];
  // The root spans whole, and each trace's spans counted, by trace id (the spans' sorting key).
  const [records, stats] = await Promise.all([
    store.query<Record<string, unknown>>(
      `SELECT ${span.recordColumns.join(', ')} FROM ${span.name} FINAL
        WHERE project_id = {project:String} AND trace_id IN {ids:Array(String)} AND parent_span_id = '' AND ${withinRetention(span.tableDef.ttlColumn)}`,
      { project: f.projectId, ids, retention: f.retentionDays },
    ),
    store.query<{ trace_id: string; spans: string | number; errors: string | number; services: string[] }>(
      `SELECT trace_id, count() AS spans, countIf(status = {error:String}) AS errors, arraySort(groupUniqArray(service)) AS services
         FROM ${span.name} FINAL
        WHERE project_id = {project:String} AND trace_id IN {ids:Array(String)}
        GROUP BY trace_id`,
      { project: f.projectId, error: 'error', ids },
    ),
  ]);
  const byEvent = new Map(records.map((r) => [String(r.event_id), span.toRecord(r) as SpanRecord]));
  const byTrace = new Map(stats.map((s) => [s.trace_id, s]));
  return page.flatMap(({ event_id }) => {
    const r = byEvent.get(String(event_id));
    if (!r) return [];
    const s = byTrace.get(r.trace_id);
    return [{ ...r, span_count: Number(s?.spans ?? 1), error_count: Number(s?.errors ?? 0), services: s?.services ?? [r.service] }];
  });
}

/** The services spans ran in over the range, busiest first (the trace search's service picker). */
export async function readSpanServices(store: ColumnStore, f: { projectId: string; retentionDays: number; range?: Partial<TimeRange> }): Promise<string[]> {
  const range = rangeOrDefault(f.range);
  const rows = await store.query<{ service: string }>(
    `SELECT service FROM ${span.name}
      WHERE ${spansWithin('from', 'to', 'received')} AND ${withinRetention(span.tableDef.ttlColumn)}
      GROUP BY service ORDER BY count() DESC, service LIMIT {limit:UInt32}`,
    { project: f.projectId, from: range.fromMs, to: range.toMs, received: range.fromMs - RECEIVED_BEFORE_START_MS, retention: f.retentionDays, limit: MAX_SERVICES },
  );
  return rows.map((r) => r.service);
}
