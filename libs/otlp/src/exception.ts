import { attributesToObject, stringAttr } from './any-value.ts';
import type { SpanEvent } from './otlp-types.ts';
import type { ErrorReportBody } from './native-shapes.ts';

// A span event named "exception" (OpenTelemetry exception semantic conventions) -> a
// native error report (POST /ingest/errors). The receiver fingerprints it with the same
// function as /ingest/errors. docs/otlp.md ("Exceptions").

export const EXCEPTION_EVENT = 'exception';
export const EXCEPTION = { type: 'exception.type', message: 'exception.message', stacktrace: 'exception.stacktrace' } as const;
const USER_ID = ['enduser.id', 'user.id'];

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
  for (const [k, v] of Object.entries(attrs)) if (k !== EXCEPTION.message && k !== EXCEPTION.stacktrace) context[k] = v;
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
  return report;
}
