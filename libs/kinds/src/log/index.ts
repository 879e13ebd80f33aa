import { defineKind } from '../kind.ts';
import { LOG_FIELDS } from './event.ts';
import { logBatchSchema, logsToEvents, splitLogBatch } from './request.ts';
import { fastLogsToEvents } from './fast-path.ts';
import { logsAsSent } from './as-sent.ts';
import { logsFromOtlp } from './otlp.ts';
import { LOG_PATH, logDocs } from './docs.ts';

// Logs: a batch of entries per request (also from Vercel drains, drain.ts, and OTLP log
// records, otlp.ts), one event per entry.
export const log = defineKind({
  id: 'log',
  name: 'logs',
  path: LOG_PATH,
  request: logBatchSchema,
  fields: LOG_FIELDS,
  toEvents: logsToEvents,
  fastEvents: fastLogsToEvents,
  asSent: logsAsSent,
  split: splitLogBatch,
  batchField: 'logs',
  respond: (events) => ({ ok: true, count: events.length }),
  // Unkeyed: batches spread over the partitions, a hot project is not pinned to one.
  table: {
    receivedAt: true,
    readReceivedAt: true,
    // Logs explorer: project + time range first, then level/service/trace/text filters.
    indexes: [
      'idx_level level TYPE set(8) GRANULARITY 4',
      'idx_service service TYPE set(256) GRANULARITY 4',
      'idx_trace trace_id TYPE bloom_filter(0.01) GRANULARITY 4',
      'idx_request request_id TYPE bloom_filter(0.01) GRANULARITY 4',
      'idx_message lower(message) TYPE ngrambf_v1(3, 65536, 2, 0) GRANULARITY 4',
      // The explorer's search (search/sql.ts): substrings of the message or the metadata's
      // JSON text by 4-grams, whole words (a metadata value with its quotes) by tokens.
      'idx_text_ngram (lower(message), lower(metadata)) TYPE ngrambf_v1(4, 32768, 3, 0) GRANULARITY 1',
      'idx_text_token (lower(message), lower(metadata)) TYPE tokenbf_v1(32768, 3, 0) GRANULARITY 1',
    ],
    engine: 'ReplacingMergeTree',
    // By receive day, so a batch with wild client timestamps never touches more than two partitions.
    partitionBy: 'toYYYYMMDD(received_at)',
    orderBy: '(project_id, timestamp, event_id)',
    ttlColumn: 'received_at',
    timeColumn: 'timestamp',
  },
  otlp: logsFromOtlp,
  docs: logDocs,
});
