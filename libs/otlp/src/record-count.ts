import type { LogsRequest, TraceRequest } from './otlp-types.ts';

// How many records one OTLP request may carry. A protobuf log record can be two bytes, so a
// 5 MB body could hold millions, each a ~300-byte event once mapped; the native endpoint
// bounds a request at 1,000 logs. 10,000 covers what SDKs and the Collector send by default
// (batches of 512 and 8,192) and keeps a request's events one Kafka message per kind.
export const MAX_OTLP_RECORDS = 10_000;

export function logRecordCount(request: LogsRequest): number {
  let n = 0;
  for (const rl of request.resourceLogs ?? []) for (const sl of rl.scopeLogs ?? []) n += sl.logRecords?.length ?? 0;
  return n;
}

export function spanCount(request: TraceRequest): number {
  let n = 0;
  for (const rs of request.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) n += ss.spans?.length ?? 0;
  return n;
}
