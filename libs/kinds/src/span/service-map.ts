import { rangeOrDefault, withinRetention, type ColumnStore, type TimeRange } from '@devtrail/column-store';
import { span } from './index.ts';
import { RECEIVED_BEFORE_START_MS, TRACE_SLACK_MS } from './search.ts';

// The service map (docs/dashboard.md, "Service map"): which service calls which over the
// range, from the parent-child links of spans. An edge is a span of one service whose parent
// span is of another: its calls are the child spans started in the range, its errors those
// that failed, its p95 their duration's (exact). The parents are looked up among the spans
// around the range (a long parent started before it).

export interface ServiceEdge {
  caller: string;
  callee: string;
  calls: number;
  errors: number;
  p95_ms: number;
}

/** At most this many edges, busiest first. */
export const MAX_EDGES = 200;

export async function readServiceMap(store: ColumnStore, f: { projectId: string; retentionDays: number; range?: Partial<TimeRange> }): Promise<ServiceEdge[]> {
  const range = rangeOrDefault(f.range);
  const within = (from: string, to: string) =>
    `project_id = {project:String} AND received_at >= fromUnixTimestamp64Milli({received:Int64})
     AND start_time >= fromUnixTimestamp64Milli({${from}:Int64}) AND start_time <= fromUnixTimestamp64Milli({${to}:Int64})`;
  const rows = await store.query<{ caller: string; callee: string; calls: string | number; errors: string | number; p95: number | string }>(
    `SELECT p.service AS caller, c.service AS callee, count() AS calls, countIf(c.status = 'error') AS errors, quantileExact(0.95)(c.duration_ms) AS p95
       FROM (SELECT trace_id, parent_span_id, service, status, duration_ms FROM ${span.name} FINAL
              WHERE ${within('from', 'to')} AND parent_span_id != '' AND ${withinRetention(span.tableDef.ttlColumn)}) AS c
       INNER JOIN (SELECT DISTINCT trace_id, span_id, service FROM ${span.name}
              WHERE ${within('wideFrom', 'wideTo')}) AS p
         ON c.trace_id = p.trace_id AND c.parent_span_id = p.span_id
      WHERE p.service != c.service
      GROUP BY caller, callee
      ORDER BY calls DESC, caller, callee
      LIMIT {limit:UInt32}`,
    {
      project: f.projectId,
      from: range.fromMs,
      to: range.toMs,
      wideFrom: range.fromMs - TRACE_SLACK_MS,
      wideTo: range.toMs + TRACE_SLACK_MS,
      received: range.fromMs - TRACE_SLACK_MS - RECEIVED_BEFORE_START_MS,
      retention: f.retentionDays,
      limit: MAX_EDGES,
    },
  );
  return rows.map((r) => ({ caller: r.caller, callee: r.callee, calls: Number(r.calls), errors: Number(r.errors), p95_ms: Number(r.p95) }));
}
