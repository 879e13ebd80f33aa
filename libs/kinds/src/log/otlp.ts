import { attributesToObject, bodyText, eachLogRecord, hexId, nanosToIso, type LogRecord, type LogsRequest, type RecordContext } from '@devtrail/otlp';
import type { OtlpPart, OtlpUnit } from '../kind.ts';
import type { logLevels } from './event.ts';
import { MAX_LOGS_PER_BATCH, type logBatchSchema } from './request.ts';
import type { z } from 'zod';

// OTLP log records -> native log batches (POST /ingest/logs bodies): one batch per
// resource (its shared fields), split at the native batch limit. Field by field in
// docs/otlp.md ("Log records").

type Level = (typeof logLevels)[number];
type LogBatchBody = z.input<typeof logBatchSchema>;
type LogEntryBody = LogBatchBody['logs'][number];

// SeverityNumber ranges of the OTel logs data model (TRACE 1-4, DEBUG 5-8, INFO 9-12,
// WARN 13-16, ERROR 17-20, FATAL 21-24); without a number the text decides; without either, info.
export function levelOfNumber(n: number): Level | undefined {
  if (n >= 1 && n <= 8) return 'debug';
  if (n >= 9 && n <= 12) return 'info';
  if (n >= 13 && n <= 16) return 'warn';
  if (n >= 17 && n <= 24) return 'error';
  return undefined;
}

/** A Map, not an object: a sender's "__proto__" or "constructor" must not find Object.prototype's. */
const TEXT_LEVELS = new Map<string, Level>([
  ['trace', 'debug'],
  ['debug', 'debug'],
  ['info', 'info'],
  ['information', 'info'],
  ['notice', 'info'],
  ['warn', 'warn'],
  ['warning', 'warn'],
  ['error', 'error'],
  ['err', 'error'],
  ['fatal', 'error'],
  ['critical', 'error'],
  ['crit', 'error'],
  ['alert', 'error'],
  ['emergency', 'error'],
  ['emerg', 'error'],
]);

export function levelOfText(text: string): Level | undefined {
  // "INFO2", "Warn" and friends: the data model lets the text carry a short-name suffix digit.
  return TEXT_LEVELS.get(
    text
      .trim()
      .toLowerCase()
      .replace(/[1-4]$/, ''),
  );
}

export function logLevel(severityNumber: number | null | undefined, severityText: string | null | undefined): Level {
  return (severityNumber ? levelOfNumber(severityNumber) : undefined) ?? (severityText ? levelOfText(severityText) : undefined) ?? 'info';
}

export function mapLogRecord(r: LogRecord, ctx: RecordContext): LogEntryBody {
  const metadata = attributesToObject(r.attributes);
  if (r.severityText) metadata['otel.severity_text'] = r.severityText;
  if (r.severityNumber) metadata['otel.severity_number'] = r.severityNumber;
  if (r.eventName) metadata['otel.event_name'] = r.eventName;
  if (ctx.scope?.version) metadata['otel.scope.version'] = ctx.scope.version;
  if (ctx.rest) metadata['otel.resource'] = ctx.rest;
  const entry: LogEntryBody = { level: logLevel(r.severityNumber, r.severityText), message: bodyText(r.body), metadata };
  const timestamp = nanosToIso(r.timeUnixNano) ?? nanosToIso(r.observedTimeUnixNano);
  if (timestamp) entry.timestamp = timestamp; // else the native default: the receive time
  const traceId = hexId(r.traceId);
  const spanId = hexId(r.spanId);
  if (traceId) entry.trace_id = traceId;
  if (spanId) entry.span_id = spanId;
  if (ctx.scope?.name) entry.context = ctx.scope.name;
  return entry;
}

export const logsFromOtlp: OtlpPart<LogsRequest> = {
  signal: 'logs',
  primary: true,
  map(request) {
    const units: OtlpUnit[] = [];
    const rejected: string[] = [];
    let shared: RecordContext['shared'] = {};
    let logs: LogEntryBody[] = [];
    const flush = () => {
      if (logs.length > 0) units.push({ body: { ...shared, logs } satisfies LogBatchBody, label: 'log record' });
      logs = [];
    };
    eachLogRecord(
      request,
      (r, ctx) => {
        shared = ctx.shared;
        try {
          logs.push(mapLogRecord(r, ctx));
        } catch (err) {
          rejected.push(`log record: ${(err as Error).message}`);
        }
        if (logs.length === MAX_LOGS_PER_BATCH) flush();
      },
      flush,
    );
    return { units, rejected };
  },
};
