export { decodeLogsRequest, decodeMetricsRequest, decodeTraceRequest, OtlpDecodeError, PROTOBUFJS, type MessageMaker, type OtlpEncoding } from './decode.ts';
export { attributesToObject, bodyText, int64ToNumber, numberAttr, plainValue, stringAttr } from './any-value.ts';
export { hexId } from './ids.ts';
export { durationMs, nanosToIso } from './time.ts';
export { mapResource, RESOURCE_FIELDS, type SharedFields } from './resource.ts';
export { eachLogRecord, eachSpan, isoOr, spanAttributes, spanTimes, type RecordContext, type SpanTimes } from './walk.ts';
export { EXCEPTION, EXCEPTION_EVENT, STATUS_CODE_ERROR } from './semconv.ts';
export { exportResponse, statusResponse, OTLP_CONTENT_TYPES, type OtlpSignal, type OtlpAnswer } from './responses.ts';
export { OTLP_TYPES } from './proto-root.ts';
export { MAX_OTLP_RECORDS } from './record-count.ts';
export { checkOtlpBudget, MAX_OTLP_GROUPS, MAX_OTLP_MESSAGES, OtlpTooLargeError } from './budget.ts';
export type {
  Exemplar,
  ExponentialHistogramDataPoint,
  HistogramDataPoint,
  Int64,
  LogRecord,
  LogsRequest,
  Metric,
  MetricsRequest,
  NumberDataPoint,
  PointBase,
  Scope,
  Span,
  SpanEvent,
  SummaryDataPoint,
  TraceRequest,
} from './otlp-types.ts';
