import { attributesToObject } from './any-value.ts';
import { mapResource, type SharedFields } from './resource.ts';
import { durationMs, nanosToIso } from './time.ts';
import type { LogRecord, LogsRequest, Scope, Span, TraceRequest } from './otlp-types.ts';

// Walking an export request record by record, with what each record inherits from its
// resource and scope. Each kind that takes records from a signal walks it on its own
// (libs/kinds/src/<kind>/otlp.ts); what they all need of a span is computed once.

export interface RecordContext {
  /** service, environment and release from the resource. */
  shared: SharedFields;
  /** The resource attributes not mapped to shared fields; undefined when none. */
  rest: Record<string, unknown> | undefined;
  scope: Scope | null | undefined;
}

export function eachLogRecord(request: LogsRequest, visit: (record: LogRecord, ctx: RecordContext) => void, endResource?: () => void): void {
  for (const rl of request.resourceLogs ?? []) {
    const { shared, rest } = mapResource(rl.resource);
    for (const sl of rl.scopeLogs ?? []) for (const r of sl.logRecords ?? []) visit(r, { shared, rest, scope: sl.scope });
    endResource?.();
  }
}

export function eachSpan(request: TraceRequest, visit: (span: Span, ctx: RecordContext) => void): void {
  for (const rs of request.resourceSpans ?? []) {
    const { shared, rest } = mapResource(rs.resource);
    for (const ss of rs.scopeSpans ?? []) for (const span of ss.spans ?? []) visit(span, { shared, rest, scope: ss.scope });
  }
}

const attributes = new WeakMap<Span, Record<string, unknown>>();

/** A span's attributes as a plain object, computed once per span (do not modify it). */
export function spanAttributes(span: Span): Record<string, unknown> {
  let a = attributes.get(span);
  if (!a) attributes.set(span, (a = attributesToObject(span.attributes)));
  return a;
}

export interface SpanTimes {
  startTime: string;
  endTime: string;
  durationMs: number;
}

/** A span's start, end and duration; throws (RangeError) for a span no record can be made of. */
export function spanTimes(span: Span): SpanTimes {
  const startTime = nanosToIso(span.startTimeUnixNano);
  if (!startTime) throw new RangeError('span has no start time');
  let ms: number;
  try {
    ms = durationMs(span.startTimeUnixNano, span.endTimeUnixNano);
  } catch {
    throw new RangeError('span times are not integers');
  }
  return { startTime, endTime: nanosToIso(span.endTimeUnixNano) ?? startTime, durationMs: ms };
}

/** An event's own time, or the fallback when it has none or one no date holds. */
export function isoOr(nanos: Span['startTimeUnixNano'], fallback: string): string {
  try {
    return nanosToIso(nanos) ?? fallback;
  } catch {
    return fallback;
  }
}
