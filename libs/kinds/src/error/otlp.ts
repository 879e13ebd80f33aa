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
  stringAttr,
  type SpanEvent,
  type TraceRequest,
} from '@devtrail/otlp';
import type { z } from 'zod';
import type { OtlpPart, OtlpUnit } from '../kind.ts';
import type { errorReportSchema } from './request.ts';

// A span event named "exception" (OpenTelemetry exception semantic conventions) -> a
// native error report (POST /ingest/errors), fingerprinted by the same function as
// /ingest/errors. docs/otlp.md ("Exceptions").

type ErrorReportBody = z.input<typeof errorReportSchema>;

const USER_ID = ['enduser.id', 'user.id'];
/** A client's own grouping (docs/fingerprint.md, "Choosing the group"): a string or an array of strings, on the exception event or its span. */
export const FINGERPRINT_ATTRIBUTE = 'devtrail.fingerprint';

function clientFingerprint(v: unknown): string[] | undefined {
  if (typeof v === 'string' && v !== '') return [v];
  if (Array.isArray(v) && v.length > 0) return v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  return undefined;
}

export interface ExceptionSpan {
  name: string;
  traceId?: string;
  spanId?: string;
  isError: boolean;
  attributes: Record<string, unknown>;
}

export function exceptionReport(
  event: SpanEvent,
  span: ExceptionSpan,
  shared: { service?: string; environment?: string; release?: string },
  resourceRest?: Record<string, unknown>,
): ErrorReportBody {
  const attrs = attributesToObject(event.attributes);
  const type = stringAttr(attrs, EXCEPTION.type);
  const message = stringAttr(attrs, EXCEPTION.message) ?? '';
  // Without a stack the "Type: message" line still lets the fingerprint see the type.
  const stack = stringAttr(attrs, EXCEPTION.stacktrace) || (type ? `${type}: ${message}` : message);
  const context: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) if (k !== EXCEPTION.message && k !== EXCEPTION.stacktrace && k !== FINGERPRINT_ATTRIBUTE) context[k] = v;
  context['otel.span_name'] = span.name;
  if (span.spanId) context['otel.span_id'] = span.spanId;
  if (resourceRest) context['otel.resource'] = resourceRest;
  const report: ErrorReportBody = {
    ...shared,
    error_message: message,
    stack_trace: stack,
    // An exception on a span that ended in error is what broke the operation.
    severity: span.isError ? 'high' : 'medium',
    context,
  };
  if (span.traceId) report.trace_id = span.traceId;
  const userId = USER_ID.map((k) => stringAttr(span.attributes, k)).find((v) => v);
  if (userId) report.user_id = userId;
  const chosen = clientFingerprint(attrs[FINGERPRINT_ATTRIBUTE] ?? span.attributes[FINGERPRINT_ATTRIBUTE]);
  if (chosen) report.fingerprint = chosen;
  return report;
}

/** One error report per exception event of a span the span kind can take; at the event's own time. */
export const errorsFromOtlp: OtlpPart<TraceRequest> = {
  signal: 'traces',
  primary: false,
  map(request) {
    const units: OtlpUnit[] = [];
    eachSpan(request, (span, ctx) => {
      if (!span.events?.some((e) => e.name === EXCEPTION_EVENT)) return;
      let endTime: string;
      try {
        endTime = spanTimes(span).endTime;
      } catch {
        return; // the span kind refuses the span, and says why
      }
      const about: ExceptionSpan = {
        name: span.name ?? '',
        traceId: hexId(span.traceId),
        spanId: hexId(span.spanId),
        isError: span.status?.code === STATUS_CODE_ERROR,
        attributes: spanAttributes(span),
      };
      for (const event of span.events) {
        if (event.name !== EXCEPTION_EVENT) continue;
        units.push({ body: exceptionReport(event, about, ctx.shared, ctx.rest), label: 'exception event', timestamp: isoOr(event.timeUnixNano, endTime) });
      }
    });
    return { units, rejected: [] };
  },
};
