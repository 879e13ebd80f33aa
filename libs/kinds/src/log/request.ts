import { z } from 'zod';
import { storeTimestamp } from '@devtrail/column-store/store-domain';
import { id, jsonObject, release, sharedRequestFields } from '../request-fields.ts';
import { utc } from '../checks.ts';
import { logLevels, type LogEvent } from './event.ts';

// POST /ingest/logs: a batch of log entries sharing service, environment and release
// (docs/api.md). The batch becomes one event per entry, defaults applied.

export const MAX_LOGS_PER_BATCH = 1000;

export const logEntrySchema = z.object({
  level: z.enum(logLevels),
  message: z.string(),
  timestamp: storeTimestamp.optional(),
  metadata: jsonObject.optional(),
  trace_id: id.optional(),
  span_id: id.optional(),
  request_id: id.optional(),
  context: z.string().optional(),
  release: release.optional(),
});

export const logBatchSchema = z.object({
  ...sharedRequestFields,
  logs: z.array(logEntrySchema).min(1).max(MAX_LOGS_PER_BATCH),
});

export type LogBatch = z.infer<typeof logBatchSchema>;
export type LogEntry = z.infer<typeof logEntrySchema>;

/** `now` stands for "the current time", the default timestamp; a client's timestamp is normalised to UTC. */
export function logsToEvents(batch: LogBatch, now: string): LogEvent[] {
  return batch.logs.map((l) => ({
    service: batch.service,
    environment: batch.environment,
    release: l.release ?? batch.release ?? '',
    timestamp: l.timestamp ? utc(l.timestamp) : now,
    level: l.level,
    message: l.message,
    metadata: l.metadata ?? {},
    trace_id: l.trace_id ?? '',
    span_id: l.span_id ?? '',
    request_id: l.request_id ?? '',
    context: l.context ?? '',
  }));
}

/** A batch as batches of one entry each, sharing its fields. */
export function splitLogBatch(body: unknown): Array<{ body: unknown; path: Array<string | number> }> {
  const { logs, ...shared } = body as { logs: unknown[] };
  return logs.map((entry) => ({ body: { ...shared, logs: [entry] }, path: ['logs', 0] }));
}
