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
import { ERROR_SEARCH } from './search.ts';
import { searchSql } from '../search/sql.ts';
import type { SearchNode } from '../search/syntax.ts';
import { error } from './index.ts';

const SEVERITY_NAMES = ['low', 'low', 'medium', 'high', 'critical'];

/** How the list is ordered (docs/api.md, GET /error-groups): most recent last seen by default. */
export const GROUP_SORTS = ['last_seen', 'first_seen', 'events', 'users'] as const;
export type GroupSort = (typeof GROUP_SORTS)[number];

export interface ErrorGroup {
  fingerprint: string;
  /** Distinct occurrences over the group's retention. */
  count: number;
  /** Distinct occurrences in the range asked for (matching the search and filters). */
  range_count: number;
  /** Distinct user ids (user_id; OTLP enduser.id) among those occurrences. */
  users: number;
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

/** Groups merged by hand (source -> target, docs/fingerprint.md#merging-groups): how a query reads a row's group. */
export type Merges = ReadonlyMap<string, string>;

/** SQL: the group a row belongs to, its merged target if it was merged; parameters msrc/mdst. */
export function groupExpr(merges: Merges | undefined): { sql: string; params: Record<string, string[]> } {
  if (!merges || merges.size === 0) return { sql: 'toString(fingerprint)', params: {} };
  return {
    sql: 'transform(toString(fingerprint), {msrc:Array(String)}, {mdst:Array(String)}, toString(fingerprint))',
    params: { msrc: [...merges.keys()], mdst: [...merges.values()] },
  };
}

/** A group's fingerprints: itself and every group merged into it. */
export function membersOf(fingerprint: string, merges: Merges | undefined): string[] {
  return [fingerprint, ...[...(merges ?? new Map()).entries()].filter(([, t]) => t === fingerprint).map(([s]) => s)];
}

const ORDER: Record<GroupSort, string> = { last_seen: 'ls', first_seen: 'fs', events: 'range_count', users: 'users' };

/**
 * Groups with an occurrence in the range (of the service or environment, matching the search),
 * ordered by `sort`; counts are distinct event ids. A group merged into another is read as that
 * one. First and last seen and `count` are over the group's retention; `range_count` and
 * `users` over the occurrences in the range that match.
 */
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
    search?: SearchNode | null;
    sort?: GroupSort;
    merges?: Merges;
    limit?: number;
  },
): Promise<ErrorGroup[]> {
  const range = rangeOrDefault(f.range);
  const g = groupExpr(f.merges);
  const search = f.search ? searchSql(f.search, ERROR_SEARCH, 'es') : undefined;
  // Which groups: by the group each row is read as (a merged group's rows are its target's).
  const wanted = f.fingerprint ? [f.fingerprint] : f.fingerprints;
  const members = wanted?.flatMap((fp) => membersOf(fp, f.merges));
  const which = [members ? 'AND fingerprint IN {mem:Array(FixedString(64))}' : '', f.excluded?.length ? `AND ${g.sql} NOT IN {ex:Array(String)}` : ''].join(' ');
  const occurred = [
    f.service ? 'AND service = {service:String}' : '',
    f.environment ? 'AND environment = {environment:String}' : '',
    search ? `AND (${search.where})` : '',
  ].join(' ');
  const rows = await store.query<{
    fingerprint: string;
    total: string;
    range_count: string;
    users: string;
    fs: string;
    ls: string;
    sev: number;
    latest: [string, string, string, string, string, string, string, string];
  }>(
    `SELECT r.g AS fingerprint, w.fs AS fs, w.ls AS ls, w.total AS total, w.latest AS latest, w.sev AS sev, r.range_count AS range_count, r.users AS users
       FROM (
         SELECT ${g.sql} AS g, uniqExact(event_id) AS range_count, uniqExactIf(user_id, user_id != '') AS users
           FROM ${error.name}
          WHERE project_id = {project:String}
            AND timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp <= fromUnixTimestamp64Milli({to:Int64})
            AND ${withinRetention(error.tableDef.ttlColumn)} ${which} ${occurred}
          GROUP BY g
       ) AS r
       INNER JOIN (
         SELECT ${g.sql} AS g, min(first_seen) AS fs, max(last_seen) AS ls, uniqExactMerge(events) AS total,
                argMaxMerge(latest) AS latest, max(max_severity) AS sev
           FROM ${GROUPS_TABLE}
          WHERE project_id = {project:String} ${which}
          GROUP BY g
         HAVING toDateTime(ls) + toIntervalDay(least(max(retention_days), {retention:UInt16})) > now()
       ) AS w ON r.g = w.g
      ORDER BY ${ORDER[f.sort ?? 'last_seen']} DESC, fingerprint
      LIMIT {limit:UInt32}`,
    {
      project: f.projectId,
      mem: members ?? [],
      ex: f.excluded ?? [],
      service: f.service ?? '',
      environment: f.environment ?? '',
      from: range.fromMs,
      to: range.toMs,
      limit: clampLimit(f.limit),
      retention: f.retentionDays,
      ...g.params,
      ...search?.params,
    },
  );
  return rows.map((r) => ({
    fingerprint: r.fingerprint,
    count: Number(r.total),
    range_count: Number(r.range_count),
    users: Number(r.users),
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
  f: {
    projectId: string;
    retentionDays: number;
    fingerprint?: string;
    /** The group's merged fingerprints too (membersOf). */
    fingerprints?: string[];
    traceId?: string;
    range?: Partial<TimeRange>;
    cursor?: string;
    limit?: number;
  },
): Promise<{ errors: ErrorRecord[]; nextCursor: string | null }> {
  const members = f.fingerprints ?? (f.fingerprint ? [f.fingerprint] : undefined);
  const range = rangeOrDefault(f.range);
  const limit = clampLimit(f.limit);
  const cursor = decodeCursor(f.cursor);
  const rows = await store.query<Record<string, unknown>>(
    `SELECT ${error.recordColumns.join(', ')}
       FROM ${error.name} FINAL
      WHERE project_id = {project:String}
        AND timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp <= fromUnixTimestamp64Milli({to:Int64})
        AND ${withinRetention(error.tableDef.ttlColumn)}
        ${members ? 'AND fingerprint IN {fps:Array(FixedString(64))}' : ''}
        ${f.traceId ? 'AND trace_id = {trace:String}' : ''}
        ${cursor ? "AND (timestamp, event_id) < (toDateTime64({ctime:String}, 3, 'UTC'), toUUID({cid:String}))" : ''}
      ORDER BY timestamp DESC, event_id DESC
      LIMIT {limit:UInt32}`,
    {
      project: f.projectId,
      from: range.fromMs,
      to: range.toMs,
      fps: members ?? [],
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
  f: { projectId: string; retentionDays: number; fingerprints: string[]; buckets: Buckets; merges?: Merges },
): Promise<Record<string, number[]>> {
  const b = f.buckets;
  const out: Record<string, number[]> = Object.fromEntries(f.fingerprints.map((fp) => [fp, new Array<number>(b.count).fill(0)]));
  if (f.fingerprints.length === 0) return out;
  const g = groupExpr(f.merges);
  const rows = await store.query<{ fingerprint: string; b: string | number; n: string | number }>(
    `SELECT ${g.sql} AS fingerprint, ${bucketExpr('timestamp')} AS b, uniqExact(event_id) AS n
       FROM ${error.name}
      WHERE project_id = {project:String} AND fingerprint IN {fps:Array(FixedString(64))}
        AND timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp <= fromUnixTimestamp64Milli({to:Int64})
        AND ${withinRetention(error.tableDef.ttlColumn)}
      GROUP BY fingerprint, b`,
    {
      project: f.projectId,
      fps: f.fingerprints.flatMap((fp) => membersOf(fp, f.merges)),
      from: b.fromMs,
      to: b.toMs,
      step: b.stepMs,
      retention: f.retentionDays,
      ...g.params,
    },
  );
  for (const r of rows) {
    const i = Number(r.b);
    if (out[r.fingerprint] && i >= 0 && i < b.count) out[r.fingerprint][i] = Number(r.n);
  }
  return out;
}

/** The services that reported errors in the range, most errors first (the errors list's service picker); at most 100. */
export async function readErrorServices(store: ColumnStore, f: { projectId: string; retentionDays: number; range?: Partial<TimeRange> }): Promise<string[]> {
  const range = rangeOrDefault(f.range);
  const rows = await store.query<{ service: string }>(
    `SELECT service FROM ${error.name}
      WHERE project_id = {project:String}
        AND timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp <= fromUnixTimestamp64Milli({to:Int64})
        AND ${withinRetention(error.tableDef.ttlColumn)}
      GROUP BY service ORDER BY count() DESC, service LIMIT 100`,
    { project: f.projectId, from: range.fromMs, to: range.toMs, retention: f.retentionDays },
  );
  return rows.map((r) => r.service);
}
