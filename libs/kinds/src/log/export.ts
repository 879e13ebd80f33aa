import { MAX_LIMIT, type ColumnStore } from '@devtrail/column-store';
import { readLogs, type LogFilter, type LogRecord } from './read.ts';

// A logs result read whole for an export, newest first, page by page (the list's cursor
// pagination), so memory holds one page while the answer streams; at most `max` logs.

/** The most logs one export holds. */
export const MAX_EXPORT_LOGS = 100_000;
/** Logs one page of an export reads. */
export const EXPORT_PAGE_LOGS = 200;

export async function* exportLogs(store: ColumnStore, f: LogFilter, max = MAX_EXPORT_LOGS): AsyncGenerator<LogRecord[]> {
  let cursor: string | undefined;
  for (let left = Math.min(max, MAX_EXPORT_LOGS); left > 0; ) {
    const page = await readLogs(store, { ...f, cursor, limit: Math.min(EXPORT_PAGE_LOGS, MAX_LIMIT, left) });
    if (page.logs.length > 0) yield page.logs;
    left -= page.logs.length;
    if (!page.nextCursor) return;
    cursor = page.nextCursor;
  }
}
