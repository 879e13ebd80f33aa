import { toChTime, withinRetention, type ColumnStore } from '@devtrail/column-store';
import { log } from './index.ts';
import type { LogRecord } from './read.ts';

// "Surrounding lines": the logs just before and after one log, in time order, optionally
// of its service only; within a day either side, a contiguous read of the sorting key.

const WINDOW_MS = 24 * 3600_000;

export interface LogAnchor {
  projectId: string;
  /** The project's retention of the kind: older rows are never returned (docs/data.md). */
  retentionDays: number;
  eventId: string;
  /** The log's timestamp (ISO 8601), which locates it in the sorting key. */
  timestamp: string;
  service?: string;
  before: number;
  after: number;
}

/** Oldest first; the anchor itself is in the list when it exists. */
export async function readSurroundingLogs(store: ColumnStore, a: LogAnchor): Promise<LogRecord[]> {
  const at = Date.parse(a.timestamp);
  const params = {
    project: a.projectId,
    t: toChTime(new Date(at).toISOString()),
    id: a.eventId,
    from: at - WINDOW_MS,
    to: at + WINDOW_MS,
    service: a.service ?? '',
    before: a.before,
    after: a.after + 1,
    retention: a.retentionDays,
  };
  const side = (cmp: '<' | '>=', order: 'DESC' | 'ASC', limit: string) =>
    `SELECT ${log.recordColumns.join(', ')} FROM ${log.name} FINAL
      WHERE project_id = {project:String}
        AND timestamp >= fromUnixTimestamp64Milli({from:Int64}) AND timestamp <= fromUnixTimestamp64Milli({to:Int64})
        AND ${withinRetention(log.tableDef.ttlColumn)}
        AND (timestamp, event_id) ${cmp} (toDateTime64({t:String}, 3, 'UTC'), toUUID({id:String}))
        ${a.service !== undefined ? 'AND service = {service:String}' : ''}
      ORDER BY timestamp ${order}, event_id ${order}
      LIMIT {${limit}:UInt32}`;
  const [older, newer] = await Promise.all([
    store.query<Record<string, unknown>>(side('<', 'DESC', 'before'), params),
    store.query<Record<string, unknown>>(side('>=', 'ASC', 'after'), params),
  ]);
  return [...older.reverse(), ...newer].map((r) => log.toRecord(r) as LogRecord);
}
