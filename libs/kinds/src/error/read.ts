import {
  bucketExpr,
  clampLimit,
  decodeCursor,
  encodeCursor,
  fromChTime,
  rangeOrDefault,
  withinRetention,
  type Buckets,
  type ColumnStore,
  type TimeRange,
} from '@devtrail/column-store';
import type { RecordOf } from '../kind.ts';
import type { ErrorEvent } from './event.ts';
import { GROUPS_TABLE } from './groups.ts';
import { error } from './index.ts';

const SEVERITY_NAMES = ['low', 'low', 'medium', 'high', 'critical'];

export interface ErrorGroup {
  fingerprint: string;
  count: number;
  first_seen: string;
  last_seen: string;
  max_severity: string;
  latest: {
    event_id: string;
    error_type: string;
    error_message: string;
    stack_trace: string;
    severity: string;
    service: string;
    release: string;
    environment: string;
  };
}

/** Groups seen in the range, most recently seen first, optionally of a service or environment. Counts are distinct event ids. */
export async function readErrorGroups(
  store: ColumnStore,
  f: {
    projectId: string;
    retentionDays: number;
    range?: Partial<TimeRange>;
    fingerprint?: string;
    fingerprints?: string[];
    excluded?: string[];
    service?: string;
    environment?: string;
    limit?: number;
  },
): Promise<ErrorGroup[]> {
  const range = rangeOrDefault(f.range);
  // Groups with an occurrence of this service or environment in the range.
  const of = [f.service && 'service = {service:String}', f.environment && 'environment = {environment:String}'].filter(Boolean);
  const occurred = of.length
    ? `AND fingerprint IN (SELECT fingerprint FROM ${error.name} WHERE project_id = {project:String}
         AND timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp <= fromUnixTimestamp64Milli({to:Int64}) AND ${of.join(' AND ')})`
    : '';
  const rows = await store.query<{
    fingerprint: string;
    count: string;
    fs: string;
    ls: string;
    sev: number;
    latest: [string, string, string, string, string, string, string, string];
  }>(
    `SELECT fingerprint, min(first_seen) AS fs, max(last_seen) AS ls,
            uniqExactMerge(events) AS count, argMaxMerge(latest) AS latest, max(max_severity) AS sev
       FROM ${GROUPS_TABLE}
      WHERE project_id = {project:String} ${f.fingerprint ? 'AND fingerprint = {fp:String}' : ''} ${occurred}
        ${f.fingerprints ? 'AND fingerprint IN {fps:Array(FixedString(64))}' : ''} ${f.excluded?.length ? 'AND fingerprint NOT IN {ex:Array(FixedString(64))}' : ''}
      GROUP BY fingerprint
     HAVING ls >= fromUnixTimestamp64Milli({from:Int64}) AND fs <= fromUnixTimestamp64Milli({to:Int64})
        AND toDateTime(ls) + toIntervalDay(least(max(retention_days), {retention:UInt16})) > now()
      ORDER BY ls DESC
      LIMIT {limit:UInt32}`,
    {
      project: f.projectId,
      fp: f.fingerprint ?? '',
      fps: f.fingerprints ?? [],
      ex: f.excluded ?? [],
      service: f.service ?? '',
      environment: f.environment ?? '',
      from: range.fromMs,
      to: range.toMs,
      limit: clampLimit(f.limit),
      retention: f.retentionDays,
    },
  );
  return rows.map((r) => ({
    fingerprint: r.fingerprint,
    count: Number(r.count),
    first_seen: fromChTime(r.fs),
    last_seen: fromChTime(r.ls),
    max_severity: SEVERITY_NAMES[Number(r.sev)] ?? 'low',
    latest: {
      event_id: String(r.latest[0]),
      error_type: r.latest[1],
      error_message: r.latest[2],
      stack_trace: r.latest[3],
      severity: r.latest[4],
      service: r.latest[5],
      release: r.latest[6],
      environment: r.latest[7],
    },
  }));
}

export type ErrorRecord = RecordOf<ErrorEvent>;

/** Occurrences, newest first, optionally of one group or one trace. */
export async function readErrors(
  store: ColumnStore,
  f: { projectId: string; retentionDays: number; fingerprint?: string; traceId?: string; range?: Partial<TimeRange>; cursor?: string; limit?: number },
): Promise<{ errors: ErrorRecord[]; nextCursor: string | null }> {
  const range = rangeOrDefault(f.range);
  const limit = clampLimit(f.limit);
  const cursor = decodeCursor(f.cursor);
  const rows = await store.query<Record<string, unknown>>(
    `SELECT ${error.recordColumns.join(', ')}
       FROM ${error.name} FINAL
      WHERE project_id = {project:String}
        AND timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp <= fromUnixTimestamp64Milli({to:Int64})
        AND ${withinRetention(error.tableDef.ttlColumn)}
        ${f.fingerprint ? 'AND fingerprint = {fp:String}' : ''}
        ${f.traceId ? 'AND trace_id = {trace:String}' : ''}
        ${cursor ? "AND (timestamp, event_id) < (toDateTime64({ctime:String}, 3, 'UTC'), toUUID({cid:String}))" : ''}
      ORDER BY timestamp DESC, event_id DESC
      LIMIT {limit:UInt32}`,
    {
      project: f.projectId,
      from: range.fromMs,
      to: range.toMs,
      fp: f.fingerprint ?? '',
      trace: f.traceId ?? '',
      ctime: cursor?.time ?? '',
      cid: cursor?.id ?? '',
      limit: limit + 1,
      retention: f.retentionDays,
    },
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    errors: page.map((r) => error.toRecord(r) as ErrorRecord),
    nextCursor: rows.length > limit && last ? encodeCursor(last.timestamp as string, last.event_id as string) : null,
  };
}

/** Distinct occurrences per bucket of some error groups (the error list's sparklines); every group gets a series. */
export async function readErrorActivity(
  store: ColumnStore,
  f: { projectId: string; retentionDays: number; fingerprints: string[]; buckets: Buckets },
): Promise<Record<string, number[]>> {
  const b = f.buckets;
  const out: Record<string, number[]> = Object.fromEntries(f.fingerprints.map((fp) => [fp, new Array<number>(b.count).fill(0)]));
  if (f.fingerprints.length === 0) return out;
  const rows = await store.query<{ fingerprint: string; b: string | number; n: string | number }>(
    `SELECT toString(fingerprint) AS fingerprint, ${bucketExpr('timestamp')} AS b, uniqExact(event_id) AS n
       FROM ${error.name}
      WHERE project_id = {project:String} AND fingerprint IN {fps:Array(FixedString(64))}
        AND timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp <= fromUnixTimestamp64Milli({to:Int64})
        AND ${withinRetention(error.tableDef.ttlColumn)}
      GROUP BY fingerprint, b`,
    { project: f.projectId, fps: f.fingerprints, from: b.fromMs, to: b.toMs, step: b.stepMs, retention: f.retentionDays },
  );
  for (const r of rows) {
    const i = Number(r.b);
    if (out[r.fingerprint] && i >= 0 && i < b.count) out[r.fingerprint][i] = Number(r.n);
  }
  return out;
}
