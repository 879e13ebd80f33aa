import { timestampInRange } from '@devtrail/column-store/store-domain';
import { isPlainObject, ISO_DATETIME, plainRecord, utc } from '../checks.ts';
import { jsonDepth } from '../json-depth.ts';
import { MAX_ID_LENGTH, MAX_JSON_DEPTH, MAX_RELEASE_LENGTH } from '../request-fields.ts';
import { logLevels, type LogEvent } from './event.ts';
import { MAX_LOGS_PER_BATCH } from './request.ts';

// Log requests are the one hot path: this accepts only what logBatchSchema accepts and
// produces exactly what logsToEvents would, without zod. It answers `undefined` for
// anything unusual, and the caller then runs the schema, which stays the single source of
// rules and messages; test/fast-path.unit.test.ts holds the two equal.
// Why: zod costs ~9 µs a log line (docs/benchmarks.md).

const LEVELS = new Set<string>(logLevels);
const optString = (v: unknown) => v === undefined || typeof v === 'string';
const optRelease = (v: unknown) => v === undefined || (typeof v === 'string' && v.length <= MAX_RELEASE_LENGTH);
const optId = (v: unknown) => v === undefined || (typeof v === 'string' && v.length <= MAX_ID_LENGTH);

/** logsToEvents(logBatchSchema.parse(body), now) for a well-formed body; undefined otherwise. */
export function fastLogsToEvents(body: unknown, now: string): LogEvent[] | undefined {
  if (!isPlainObject(body)) return undefined;
  const { service = 'unknown', environment = 'production', release, logs } = body;
  if (typeof service !== 'string' || typeof environment !== 'string' || !optRelease(release)) return undefined;
  if (!Array.isArray(logs) || logs.length < 1 || logs.length > MAX_LOGS_PER_BATCH) return undefined;
  const out: LogEvent[] = new Array(logs.length);
  for (let i = 0; i < logs.length; i++) {
    const l = logs[i];
    if (!isPlainObject(l)) return undefined;
    const { level, message, timestamp, metadata, trace_id, span_id, request_id, context, release: own } = l;
    if (typeof level !== 'string' || !LEVELS.has(level) || typeof message !== 'string') return undefined;
    if (timestamp !== undefined && (typeof timestamp !== 'string' || !ISO_DATETIME.test(timestamp) || !timestampInRange(timestamp))) return undefined;
    if (metadata !== undefined && (!plainRecord(metadata) || jsonDepth(metadata, MAX_JSON_DEPTH) > MAX_JSON_DEPTH)) return undefined;
    if (!optId(trace_id) || !optId(span_id) || !optId(request_id) || !optString(context) || !optRelease(own)) return undefined;
    out[i] = {
      service,
      environment,
      release: (own as string | undefined) ?? (release as string | undefined) ?? '',
      timestamp: timestamp ? utc(timestamp as string) : now,
      level: level as LogEvent['level'],
      message,
      metadata: (metadata as Record<string, unknown> | undefined) ?? {},
      trace_id: (trace_id as string | undefined) ?? '',
      span_id: (span_id as string | undefined) ?? '',
      request_id: (request_id as string | undefined) ?? '',
      context: (context as string | undefined) ?? '',
    };
  }
  return out;
}
