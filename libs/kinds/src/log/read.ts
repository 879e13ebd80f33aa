import { clampLimit, decodeCursor, encodeCursor, type ColumnStore } from '@devtrail/column-store';
import { logWhere, type LogFilter } from './filter.ts';
import type { RecordOf } from '../kind.ts';
import type { LogEvent } from './event.ts';
import { log } from './index.ts';

export type { LogFilter };

export type LogRecord = RecordOf<LogEvent> & { received_at: string };

/** Newest first, cursor-paginated (the filters: filter.ts). */
export async function readLogs(store: ColumnStore, f: LogFilter & { cursor?: string; limit?: number }): Promise<{ logs: LogRecord[]; nextCursor: string | null }> {
  const limit = clampLimit(f.limit);
  const { where, params } = logWhere(f);
  params.limit = limit + 1;
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
