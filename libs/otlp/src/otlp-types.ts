// The parts of the OTLP messages devtrail reads, as protobufjs decodes them (lowerCamelCase
// fields; proto3 defaults may be absent). 64-bit integers arrive as Long objects from the
// protobuf decoder, or as numbers or strings from OTLP/JSON.

export type Int64 = number | string | { toNumber(): number; toString(): string; high?: number; low?: number; unsigned?: boolean };

export interface AnyValue {
  stringValue?: string | null;
  boolValue?: boolean | null;
  intValue?: Int64 | null;
  doubleValue?: number | null;
  arrayValue?: { values?: AnyValue[] | null } | null;
  kvlistValue?: { values?: KeyValue[] | null } | null;
  bytesValue?: Uint8Array | null;
}

export interface KeyValue {
  key?: string | null;
  value?: AnyValue | null;
}

export interface Resource {
  attributes?: KeyValue[] | null;
}

export interface Scope {
  name?: string | null;
  version?: string | null;
}

export interface LogRecord {
  timeUnixNano?: Int64 | null;
  observedTimeUnixNano?: Int64 | null;
  severityNumber?: number | null;
  severityText?: string | null;
  body?: AnyValue | null;
  attributes?: KeyValue[] | null;
  traceId?: Uint8Array | null;
  spanId?: Uint8Array | null;
  eventName?: string | null;
}

export interface LogsRequest {
  resourceLogs?: Array<{ resource?: Resource | null; scopeLogs?: Array<{ scope?: Scope | null; logRecords?: LogRecord[] | null }> | null }> | null;
}

export interface SpanEvent {
  timeUnixNano?: Int64 | null;
  name?: string | null;
  attributes?: KeyValue[] | null;
}

export interface Span {
  traceId?: Uint8Array | null;
  spanId?: Uint8Array | null;
  parentSpanId?: Uint8Array | null;
  name?: string | null;
  kind?: number | null;
  startTimeUnixNano?: Int64 | null;
  endTimeUnixNano?: Int64 | null;
  attributes?: KeyValue[] | null;
  events?: SpanEvent[] | null;
  links?: Array<{ traceId?: Uint8Array | null; spanId?: Uint8Array | null }> | null;
  status?: { code?: number | null; message?: string | null } | null;
}

export interface TraceRequest {
  resourceSpans?: Array<{ resource?: Resource | null; scopeSpans?: Array<{ scope?: Scope | null; spans?: Span[] | null }> | null }> | null;
}

export interface Exemplar {
  timeUnixNano?: Int64 | null;
  asDouble?: number | null;
  asInt?: Int64 | null;
  spanId?: Uint8Array | null;
  traceId?: Uint8Array | null;
  filteredAttributes?: KeyValue[] | null;
}

/** What every data point carries. */
export interface PointBase {
  attributes?: KeyValue[] | null;
  startTimeUnixNano?: Int64 | null;
  timeUnixNano?: Int64 | null;
  exemplars?: Exemplar[] | null;
  flags?: number | null;
}

export interface NumberDataPoint extends PointBase {
  asDouble?: number | null;
  asInt?: Int64 | null;
}

export interface HistogramDataPoint extends PointBase {
  count?: Int64 | null;
  sum?: number | null;
  bucketCounts?: Int64[] | null;
  explicitBounds?: number[] | null;
  min?: number | null;
  max?: number | null;
}

export interface ExponentialBuckets {
  offset?: number | null;
  bucketCounts?: Int64[] | null;
}

export interface ExponentialHistogramDataPoint extends PointBase {
  count?: Int64 | null;
  sum?: number | null;
  scale?: number | null;
  zeroCount?: Int64 | null;
  positive?: ExponentialBuckets | null;
  negative?: ExponentialBuckets | null;
  min?: number | null;
  max?: number | null;
  zeroThreshold?: number | null;
}

export interface SummaryDataPoint extends PointBase {
  count?: Int64 | null;
  sum?: number | null;
  quantileValues?: Array<{ quantile?: number | null; value?: number | null }> | null;
}

export interface Metric {
  name?: string | null;
  description?: string | null;
  unit?: string | null;
  gauge?: { dataPoints?: NumberDataPoint[] | null } | null;
  sum?: { dataPoints?: NumberDataPoint[] | null; aggregationTemporality?: number | null; isMonotonic?: boolean | null } | null;
  histogram?: { dataPoints?: HistogramDataPoint[] | null; aggregationTemporality?: number | null } | null;
  exponentialHistogram?: { dataPoints?: ExponentialHistogramDataPoint[] | null; aggregationTemporality?: number | null } | null;
  summary?: { dataPoints?: SummaryDataPoint[] | null } | null;
}

export interface MetricsRequest {
  resourceMetrics?: Array<{ resource?: Resource | null; scopeMetrics?: Array<{ scope?: Scope | null; metrics?: Metric[] | null }> | null }> | null;
}
