import { datetimeRegex } from 'zod';
import { logLevels, MAX_ID_LENGTH, MAX_JSON_DEPTH, MAX_LOGS_PER_BATCH, MAX_RELEASE_LENGTH } from './schemas.ts';
import { timestampInRange } from '@devtrail/column-store/store-domain';
import type { LogEvent } from './events.ts';
import { jsonDepth } from './json-depth.ts';
import { utc } from './to-events.ts';

// Hand-written checks for the one hot path, log events, that accept only what the zod
// schemas accept and produce exactly what they would. They answer `undefined` for
// anything unusual, and the caller then runs the zod schema, which stays the single
// source of rules and of error messages. test/fast-paths.test.ts holds them to that.
// Why: zod costs ~9 µs a log line on each side of Kafka (docs/benchmarks.md).

/** The regex z.string().datetime({ offset: true }) tests (zod builds it anew on every call). */
export const ISO_DATETIME = datetimeRegex({ precision: null, offset: true, local: false });
const LEVELS = new Set<string>(logLevels);
/** toISOString's own form: such a (valid) timestamp is already what utc() would return. */
const CANONICAL_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const normalised = (ts: string) => (ts.length === 24 && CANONICAL_UTC.test(ts) ? ts : utc(ts));

/** What zod treats as an object, restricted to what JSON.parse makes. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const optString = (v: unknown) => v === undefined || typeof v === 'string';
const optRelease = (v: unknown) => v === undefined || (typeof v === 'string' && v.length <= MAX_RELEASE_LENGTH);
const optId = (v: unknown) => v === undefined || (typeof v === 'string' && v.length <= MAX_ID_LENGTH);
/** z.record(z.unknown()) copies the object without an own "__proto__" key: leave that case to zod. */
const plainRecord = (v: unknown): v is Record<string, unknown> => isPlainObject(v) && !Object.hasOwn(v, '__proto__');

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
      timestamp: timestamp ? normalised(timestamp as string) : now,
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

/** logEventSchema.parse(data) for a well-formed log event (unknown keys dropped); undefined otherwise. */
export function fastLogEvent(d: unknown): LogEvent | undefined {
  if (!isPlainObject(d)) return undefined;
  const { service, environment, release, timestamp, level, message, metadata, trace_id, span_id, request_id, context } = d;
  if (typeof service !== 'string' || typeof environment !== 'string' || typeof release !== 'string') return undefined;
  if (typeof timestamp !== 'string' || !ISO_DATETIME.test(timestamp)) return undefined;
  if (typeof level !== 'string' || !LEVELS.has(level) || typeof message !== 'string' || !plainRecord(metadata)) return undefined;
  if (typeof trace_id !== 'string' || typeof span_id !== 'string' || typeof request_id !== 'string' || typeof context !== 'string') return undefined;
  return { service, environment, release, timestamp, level: level as LogEvent['level'], message, metadata, trace_id, span_id, request_id, context };
}
