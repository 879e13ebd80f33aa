import { clampLimit, decodeCursor, encodeCursor, rangeOrDefault, withinRetention, type ColumnStore, type TimeRange } from '@devtrail/column-store';
import type { RecordOf } from '../kind.ts';
import type { LogEvent } from './event.ts';
import { log } from './index.ts';

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
  text?: string;
  cursor?: string;
  limit?: number;
}

export type LogRecord = RecordOf<LogEvent> & { received_at: string };

/** Newest first, cursor-paginated. Each optional filter adds a fixed clause; values are parameters. */
export async function readLogs(store: ColumnStore, f: LogFilter): Promise<{ logs: LogRecord[]; nextCursor: string | null }> {
  const range = rangeOrDefault(f.range);
  const limit = clampLimit(f.limit);
  const params: Record<string, unknown> = { project: f.projectId, from: range.fromMs, to: range.toMs, limit: limit + 1, retention: f.retentionDays };
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
  if (f.text) add('positionCaseInsensitiveUTF8(message, {text:String}) > 0', 'text', f.text);
  const cursor = decodeCursor(f.cursor);
  if (cursor) {
    where.push("(timestamp, event_id) < (toDateTime64({ctime:String}, 3, 'UTC'), toUUID({cid:String}))");
    params.ctime = cursor.time;
    params.cid = cursor.id;
  }
  const rows = await store.query<Record<string, unknown>>(
    `SELECT ${log.recordColumns.join(', ')}
       FROM ${log.name} FINAL
      WHERE ${where.join(' AND ')}
      ORDER BY timestamp DESC, event_id DESC
      LIMIT {limit:UInt32}`,
    params,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    logs: page.map((r) => log.toRecord(r) as LogRecord),
    nextCursor: rows.length > limit && last ? encodeCursor(last.timestamp as string, last.event_id as string) : null,
  };
}
