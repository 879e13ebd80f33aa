import {
  attributesToObject,
  eachSpan,
  EXCEPTION,
  EXCEPTION_EVENT,
  hexId,
  isoOr,
  spanAttributes,
  spanTimes,
  STATUS_CODE_ERROR,
  type Span,
  type TraceRequest,
} from '@devtrail/otlp';
import type { z } from 'zod';
import type { OtlpPart, OtlpUnit } from '../kind.ts';
import type { spanSchema } from './request.ts';

// OTLP spans -> native span bodies (POST /ingest/traces). Field by field in docs/otlp.md ("Spans").

type SpanBody = z.input<typeof spanSchema>;

export const SPAN_KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;

/**
 * A copy of a span's attributes to add to. Spreading these objects, per span, cost V8 several
 * times what Object.assign does (a span's mapping was 13 µs, docs/benchmarks.md); a "__proto__"
 * key must be defined, not set, so such an object is spread.
 */
const copyOf = (a: Record<string, unknown>): Record<string, unknown> => (Object.hasOwn(a, '__proto__') ? { ...a } : Object.assign({}, a));

function eventSummaries(span: Span): Array<Record<string, unknown>> {
  return (span.events ?? []).map((e) => {
    const attributes = attributesToObject(e.attributes);
    // The stack goes to the error report (error/otlp.ts); the span keeps which exception it was.
    if (e.name === EXCEPTION_EVENT) delete attributes[EXCEPTION.stacktrace];
    return { name: e.name ?? '', timestamp: isoOr(e.timeUnixNano, ''), attributes };
  });
}

export const spansFromOtlp: OtlpPart<TraceRequest> = {
  signal: 'traces',
  primary: true,
  map(request) {
    const units: OtlpUnit[] = [];
    const rejected: string[] = [];
    eachSpan(request, (span, ctx) => {
      const name = span.name ?? '';
      try {
        const { startTime, durationMs } = spanTimes(span);
        const metadata = copyOf(spanAttributes(span));
        metadata['otel.span_kind'] = SPAN_KINDS[span.kind ?? 0] ?? String(span.kind);
        if (span.status?.message) metadata['otel.status_message'] = span.status.message;
        if (ctx.scope?.name) metadata['otel.scope.name'] = ctx.scope.name;
        if (ctx.scope?.version) metadata['otel.scope.version'] = ctx.scope.version;
        if (span.events?.length) metadata['otel.events'] = eventSummaries(span);
        if (span.links?.length) metadata['otel.links'] = span.links.map((l) => ({ trace_id: hexId(l.traceId) ?? '', span_id: hexId(l.spanId) ?? '' }));
        if (ctx.rest) metadata['otel.resource'] = ctx.rest;
        // The shared fields one by one (an absent one undefined: the native default applies).
        const body: SpanBody = {
          service: ctx.shared.service,
          environment: ctx.shared.environment,
          release: ctx.shared.release,
          trace_id: hexId(span.traceId) ?? '',
          span_id: hexId(span.spanId) ?? '',
          parent_span_id: hexId(span.parentSpanId) ?? '',
          operation: name,
          start_time: startTime,
          duration_ms: durationMs,
          status: span.status?.code === STATUS_CODE_ERROR ? 'error' : 'ok',
          metadata,
        };
        units.push({ body, label: `span ${units.length} (${JSON.stringify(name)})` });
      } catch (err) {
        rejected.push(`span ${JSON.stringify(name)}: ${(err as Error).message}`);
      }
    });
    return { units, rejected };
  },
};
