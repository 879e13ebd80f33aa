import { clampLimit, decodeCursor, encodeCursor, type ColumnStore } from '@devtrail/column-store';
import { logWhere, type LogFilter } from './filter.ts';
import type { RecordOf } from '../kind.ts';
import type { LogEvent } from './event.ts';
import { log } from './index.ts';

export type { LogFilter };

export type LogRecord = RecordOf<LogEvent> & { received_at: string };

/** The first slice read is this part of the range (at least a minute); each next one is SLICE_GROWTH times longer. */
export const FIRST_SLICE = 1 / 256;
const SLICE_GROWTH = 4;
const MIN_SLICE_MS = 60_000;

/** The range cut into slices, newest first, each [from, to) but the first, which ends at the range's end; whole milliseconds (query parameters are Int64). */
export function slicesOf(fromMs: number, toMs: number): Array<{ fromMs: number; toMs: number }> {
  const out = [];
  let width = Math.max(MIN_SLICE_MS, Math.ceil((toMs - fromMs) * FIRST_SLICE));
  for (let end = toMs; end > fromMs; width *= SLICE_GROWTH) {
    const start = Math.max(fromMs, end - width);
    out.push({ fromMs: start, toMs: end });
    end = start;
  }
  return out;
}

/**
 * Newest first, cursor-paginated (the filters: filter.ts). The range is read newest slice
 * first, each slice longer than the last, until the page is full: a list or a search that
 * matches often is answered from the newest minutes instead of from the whole range, and one
 * that matches rarely reads the range once, in a handful of queries.
 */
export async function readLogs(store: ColumnStore, f: LogFilter & { cursor?: string; limit?: number }): Promise<{ logs: LogRecord[]; nextCursor: string | null }> {
  const limit = clampLimit(f.limit);
  const { where, params, range } = logWhere(f);
  const cursor = decodeCursor(f.cursor);
  let toMs = range.toMs;
  if (cursor) {
    where.push("(timestamp, event_id) < (toDateTime64({ctime:String}, 3, 'UTC'), toUUID({cid:String}))");
    params.ctime = cursor.time;
    params.cid = cursor.id;
    toMs = Math.min(toMs, Date.parse(`${cursor.time.replace(' ', 'T')}Z`));
  }
  const rows: Array<Record<string, unknown>> = [];
  for (const [i, slice] of slicesOf(range.fromMs, toMs).entries()) {
    const upper = i === 0 ? 'timestamp <= fromUnixTimestamp64Milli({sliceTo:Int64})' : 'timestamp < fromUnixTimestamp64Milli({sliceTo:Int64})';
    rows.push(
      ...(await store.query<Record<string, unknown>>(
        `SELECT ${log.recordColumns.join(', ')}
           FROM ${log.name} FINAL
          WHERE ${[...where, 'timestamp >= fromUnixTimestamp64Milli({sliceFrom:Int64})', upper].join(' AND ')}
          ORDER BY timestamp DESC, event_id DESC
          LIMIT {limit:UInt32}`,
        { ...params, sliceFrom: slice.fromMs, sliceTo: slice.toMs, limit: limit + 1 - rows.length },
      )),
    );
    if (rows.length > limit) break;
  }
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    logs: page.map((r) => log.toRecord(r) as LogRecord),
    nextCursor: rows.length > limit && last ? encodeCursor(last.timestamp as string, last.event_id as string) : null,
  };
}
