import { MAX_LOGS_PER_BATCH } from '@devtrail/kinds';
import { attributesToObject, bodyText } from './any-value.ts';
import { hexId } from './ids.ts';
import type { LogRecord, LogsRequest, Scope } from './otlp-types.ts';
import { mapResource } from './resource.ts';
import { logLevel } from './severity.ts';
import { nanosToIso } from './time.ts';
import type { LogBatchBody, LogEntryBody, MappingRejection } from './native-shapes.ts';

// ExportLogsServiceRequest -> native log batches (POST /ingest/logs bodies): one batch
// per resource (its shared fields), split at the native batch limit. Field by field in
// docs/otlp.md ("Log records").

export interface MappedLogs {
  batches: LogBatchBody[];
  rejected: MappingRejection[];
}

export function mapLogRecord(r: LogRecord, scope: Scope | null | undefined, resourceRest: Record<string, unknown> | undefined): LogEntryBody {
  const metadata = attributesToObject(r.attributes);
  if (r.severityText) metadata['otel.severity_text'] = r.severityText;
  if (r.severityNumber) metadata['otel.severity_number'] = r.severityNumber;
  if (r.eventName) metadata['otel.event_name'] = r.eventName;
  if (scope?.version) metadata['otel.scope.version'] = scope.version;
  if (resourceRest) metadata['otel.resource'] = resourceRest;
  const entry: LogEntryBody = { level: logLevel(r.severityNumber, r.severityText), message: bodyText(r.body), metadata };
  const timestamp = nanosToIso(r.timeUnixNano) ?? nanosToIso(r.observedTimeUnixNano);
  if (timestamp) entry.timestamp = timestamp; // else the native default: the receive time
  const traceId = hexId(r.traceId);
  const spanId = hexId(r.spanId);
  if (traceId) entry.trace_id = traceId;
  if (spanId) entry.span_id = spanId;
  if (scope?.name) entry.context = scope.name;
  return entry;
}

export function mapLogs(request: LogsRequest): MappedLogs {
  const batches: LogBatchBody[] = [];
  const rejected: MappingRejection[] = [];
  for (const rl of request.resourceLogs ?? []) {
    const { shared, rest } = mapResource(rl.resource);
    let logs: LogEntryBody[] = [];
    const flush = () => {
      if (logs.length > 0) batches.push({ ...shared, logs });
      logs = [];
    };
    for (const sl of rl.scopeLogs ?? []) {
      for (const r of sl.logRecords ?? []) {
        try {
          logs.push(mapLogRecord(r, sl.scope, rest));
        } catch (err) {
          rejected.push({ reason: `log record: ${(err as Error).message}` });
        }
        if (logs.length === MAX_LOGS_PER_BATCH) flush();
      }
    }
    flush();
  }
  return { batches, rejected };
}
