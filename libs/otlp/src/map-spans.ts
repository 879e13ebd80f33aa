import { attributesToObject } from './any-value.ts';
import { exceptionReport, EXCEPTION, EXCEPTION_EVENT } from './exception.ts';
import { genAiUsage } from './gen-ai.ts';
import { hexId } from './ids.ts';
import type { Scope, Span, TraceRequest } from './otlp-types.ts';
import { mapResource } from './resource.ts';
import { durationMs as nanosDurationMs, nanosToIso } from './time.ts';
import type { ErrorReportBody, LlmUsageBody, MappingRejection, SpanBody, Timed } from './native-shapes.ts';

// ExportTraceServiceRequest -> native span bodies (POST /ingest/traces), plus an LLM
// usage body for each GenAI span and an error report for each "exception" event.
// Field by field in docs/otlp.md ("Spans").

export const SPAN_KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;
export const STATUS_CODE_ERROR = 2;

export interface MappedTraces {
  spans: SpanBody[];
  llm: Array<Timed<LlmUsageBody>>;
  errors: Array<Timed<ErrorReportBody>>;
  rejected: MappingRejection[];
}

/** An event's own time, or the fallback when it has none or one no date holds. */
function isoOr(nanos: Span['startTimeUnixNano'], fallback: string): string {
  try {
    return nanosToIso(nanos) ?? fallback;
  } catch {
    return fallback;
  }
}

function eventSummaries(span: Span): Array<Record<string, unknown>> {
  return (span.events ?? []).map((e) => {
    const attributes = attributesToObject(e.attributes);
    // The stack goes to the error report; the span keeps which exception it was.
    if (e.name === EXCEPTION_EVENT) delete attributes[EXCEPTION.stacktrace];
    return { name: e.name ?? '', timestamp: isoOr(e.timeUnixNano, ''), attributes };
  });
}

interface SpanContext {
  shared: ReturnType<typeof mapResource>['shared'];
  rest: Record<string, unknown> | undefined;
  scope: Scope | null | undefined;
}

function spanDurationMs(span: Span): number {
  try {
    return nanosDurationMs(span.startTimeUnixNano, span.endTimeUnixNano);
  } catch {
    throw new RangeError('span times are not integers');
  }
}

function mapSpan(span: Span, ctx: SpanContext, out: MappedTraces): void {
  const attributes = attributesToObject(span.attributes);
  const traceId = hexId(span.traceId) ?? '';
  const spanId = hexId(span.spanId) ?? '';
  const name = span.name ?? '';
  const startTime = nanosToIso(span.startTimeUnixNano);
  if (!startTime) throw new RangeError('span has no start time');
  const durationMs = spanDurationMs(span);
  const endTime = nanosToIso(span.endTimeUnixNano) ?? startTime;
  const isError = span.status?.code === STATUS_CODE_ERROR;

  const metadata: Record<string, unknown> = { ...attributes, 'otel.span_kind': SPAN_KINDS[span.kind ?? 0] ?? String(span.kind) };
  if (span.status?.message) metadata['otel.status_message'] = span.status.message;
  if (ctx.scope?.name) metadata['otel.scope.name'] = ctx.scope.name;
  if (ctx.scope?.version) metadata['otel.scope.version'] = ctx.scope.version;
  if (span.events?.length) metadata['otel.events'] = eventSummaries(span);
  if (span.links?.length) metadata['otel.links'] = span.links.map((l) => ({ trace_id: hexId(l.traceId) ?? '', span_id: hexId(l.spanId) ?? '' }));
  if (ctx.rest) metadata['otel.resource'] = ctx.rest;
  out.spans.push({
    ...ctx.shared,
    trace_id: traceId,
    span_id: spanId,
    parent_span_id: hexId(span.parentSpanId) ?? '',
    operation: name,
    start_time: startTime,
    duration_ms: durationMs,
    status: isError ? 'error' : 'ok',
    metadata,
  });

  const llm = genAiUsage({ name, traceId, spanId, durationMs, attributes }, ctx.shared);
  if (llm) out.llm.push({ body: llm, timestamp: endTime });
  for (const event of span.events ?? []) {
    if (event.name !== EXCEPTION_EVENT) continue;
    const body = exceptionReport(event, { name, traceId, spanId, isError, attributes }, ctx.shared, ctx.rest);
    out.errors.push({ body, timestamp: isoOr(event.timeUnixNano, endTime) });
  }
}

export function mapTraces(request: TraceRequest): MappedTraces {
  const out: MappedTraces = { spans: [], llm: [], errors: [], rejected: [] };
  for (const rs of request.resourceSpans ?? []) {
    const { shared, rest } = mapResource(rs.resource);
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        try {
          mapSpan(span, { shared, rest, scope: ss.scope }, out);
        } catch (err) {
          out.rejected.push({ reason: `span ${JSON.stringify(span.name ?? '')}: ${(err as Error).message}` });
        }
      }
    }
  }
  return out;
}
