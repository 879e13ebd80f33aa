import type { ColumnStore } from '../column-store.ts';
import { fromChTime } from '../rows.ts';
import { clampLimit, decodeCursor, encodeCursor, parseJson, rangeOrDefault, type TimeRange } from './time-range.ts';

export interface LogFilter {
  projectId: string;
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

export interface LogRecord {
  event_id: string;
  timestamp: string;
  received_at: string;
  level: string;
  service: string;
  environment: string;
  release: string;
  message: string;
  metadata: unknown;
  trace_id: string;
  span_id: string;
  request_id: string;
  context: string;
}

/** Newest first, cursor-paginated. Each optional filter adds a fixed clause; values are parameters. */
export async function readLogs(store: ColumnStore, f: LogFilter): Promise<{ logs: LogRecord[]; nextCursor: string | null }> {
  const range = rangeOrDefault(f.range);
  const limit = clampLimit(f.limit);
  const params: Record<string, unknown> = { project: f.projectId, from: range.fromMs, to: range.toMs, limit: limit + 1 };
  const where = ['project_id = {project:String}', 'timestamp >= fromUnixTimestamp64Milli({from:Int64})', 'timestamp <= fromUnixTimestamp64Milli({to:Int64})'];
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
  const rows = await store.query<Omit<LogRecord, 'metadata'> & { metadata: string }>(
    `SELECT event_id, timestamp, received_at,
            level, service, environment, release, message, metadata, trace_id, span_id, request_id, context
       FROM logs FINAL
      WHERE ${where.join(' AND ')}
      ORDER BY timestamp DESC, event_id DESC
      LIMIT {limit:UInt32}`,
    params,
  );
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    logs: page.map((r) => ({ ...r, timestamp: fromChTime(r.timestamp), received_at: fromChTime(r.received_at), metadata: parseJson(r.metadata) })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.timestamp, last.event_id) : null,
  };
}
