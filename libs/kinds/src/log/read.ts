import { clampLimit, decodeCursor, encodeCursor, type ColumnStore } from '@devtrail/column-store';
import { logWhere, type LogFilter } from './filter.ts';
import type { RecordOf } from '../kind.ts';
import type { LogEvent } from './event.ts';
import { log } from './index.ts';

export type { LogFilter };

export type LogRecord = RecordOf<LogEvent> & { received_at: string };

/** The first slice read is this part of the range (at least a minute). */
export const FIRST_SLICE = 1 / 256;
const MIN_SLICE_MS = 60_000;
/** Each next slice is at least this many times longer than the last; EMPTY_GROWTH after finding nothing yet. */
const MIN_GROWTH = 4;
const EMPTY_GROWTH = 8;

export interface Slice {
  fromMs: number;
  toMs: number;
}

/**
 * The range in slices, newest first, contiguous, in whole milliseconds (query parameters are
 * Int64): the caller reads each and passes back how many rows it found (`next(found)`), until
 * `want` rows are found or the range is read. The next slice is sized from what was found so
 * far: twice what the rate seen so far needs, at least four times the last; eight times the
 * last while nothing was found (the newest minutes of a range are often empty), so a rare
 * match reads a day in four queries.
 */
export function* slicesOf(fromMs: number, toMs: number, want: number): Generator<Slice, void, number> {
  let width = Math.max(MIN_SLICE_MS, Math.ceil((toMs - fromMs) * FIRST_SLICE));
  let found = 0;
  let scanned = 0;
  for (let end = toMs; end > fromMs; ) {
    const start = Math.max(fromMs, end - width);
    found += yield { fromMs: start, toMs: end };
    scanned += end - start;
    end = start;
    if (found >= want) return;
    width = found === 0 ? width * EMPTY_GROWTH : Math.max(width * MIN_GROWTH, Math.ceil((2 * (want - found) * scanned) / found));
  }
}

/**
 * Newest first, cursor-paginated (the filters: filter.ts). The range is read newest slice
 * first (slicesOf) until the page is full: a list or a search that matches often is answered
 * from the newest minutes instead of from the whole range, one that matches rarely reads the
 * range once, in a few queries.
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
  const slices = slicesOf(range.fromMs, toMs, limit + 1);
  for (let s = slices.next(), first = true; !s.done; first = false) {
    const upper = first ? 'timestamp <= fromUnixTimestamp64Milli({sliceTo:Int64})' : 'timestamp < fromUnixTimestamp64Milli({sliceTo:Int64})';
    const found = await store.query<Record<string, unknown>>(
      `SELECT ${log.recordColumns.join(', ')}
         FROM ${log.name} FINAL
        WHERE ${[...where, 'timestamp >= fromUnixTimestamp64Milli({sliceFrom:Int64})', upper].join(' AND ')}
        ORDER BY timestamp DESC, event_id DESC
        LIMIT {limit:UInt32}`,
      { ...params, sliceFrom: s.value.fromMs, sliceTo: s.value.toMs, limit: limit + 1 - rows.length },
    );
    rows.push(...found);
    s = slices.next(found.length);
  }
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    logs: page.map((r) => log.toRecord(r) as LogRecord),
    nextCursor: rows.length > limit && last ? encodeCursor(last.timestamp as string, last.event_id as string) : null,
  };
}
