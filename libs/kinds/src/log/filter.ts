import { rangeOrDefault, withinRetention, type TimeRange } from '@devtrail/column-store';
import { log } from './index.ts';
import { searchSql } from '../search/sql.ts';
import type { SearchNode } from '../search/syntax.ts';
import { LOG_SEARCH } from './search.ts';

// The conditions every logs read shares (the list, the volume histogram, the facets): the
// project, the time range, the project's retention, the fixed filters and the parsed search.
// Values are parameters.

export interface LogFilter {
  projectId: string;
  /** The project's retention of logs: older rows are never returned (docs/data.md). */
  retentionDays: number;
  range?: Partial<TimeRange>;
  levels?: string[];
  service?: string;
  environment?: string;
  release?: string;
  traceId?: string;
  /** A parsed search (search.ts); null or absent: no search. */
  search?: SearchNode | null;
}

export interface LogWhere {
  where: string[];
  params: Record<string, unknown>;
  range: TimeRange;
}

export function logWhere(f: LogFilter): LogWhere {
  const range = rangeOrDefault(f.range);
  const params: Record<string, unknown> = { project: f.projectId, from: range.fromMs, to: range.toMs, retention: f.retentionDays };
  const where = [
    'project_id = {project:String}',
    'timestamp >= fromUnixTimestamp64Milli({from:Int64})',
    'timestamp <= fromUnixTimestamp64Milli({to:Int64})',
    withinRetention(log.tableDef.ttlColumn),
  ];
  const add = (clause: string, name: string, value: unknown) => {
    where.push(clause);
    params[name] = value;
  };
  if (f.levels?.length) add('level IN {levels:Array(String)}', 'levels', f.levels);
  if (f.service) add('service = {service:String}', 'service', f.service);
  if (f.environment) add('environment = {environment:String}', 'environment', f.environment);
  if (f.release) add('release = {release:String}', 'release', f.release);
  if (f.traceId) add('trace_id = {trace:String}', 'trace', f.traceId);
  if (f.search) {
    const s = searchSql(f.search, LOG_SEARCH);
    where.push(s.where);
    Object.assign(params, s.params);
  }
  return { where, params, range };
}
