import type { ErrorReport, LlmUsageInput, LogBatch, SpanInput } from './schemas.ts';
import type { ErrorEvent, LlmEvent, LogEvent, SpanEvent } from './events.ts';
import { errorTypeOf, fingerprint } from './fingerprint.ts';

// Validated request bodies -> normalised events (spec defaults applied; absent strings '').
// `now` is the receive time, used for the spec's "timestamp: current time" default.
// Client timestamps are normalised to UTC ISO 8601 with milliseconds (same instant).

export const utc = (iso: string) => new Date(iso).toISOString();

export function logsToEvents(batch: LogBatch, now: string): LogEvent[] {
  return batch.logs.map((l) => ({
    service: batch.service,
    environment: batch.environment,
    release: l.release ?? batch.release ?? '',
    timestamp: l.timestamp ? utc(l.timestamp) : now,
    level: l.level,
    message: l.message,
    metadata: l.metadata ?? {},
    trace_id: l.trace_id ?? '',
    span_id: l.span_id ?? '',
    request_id: l.request_id ?? '',
    context: l.context ?? '',
  }));
}

export function errorToEvent(e: ErrorReport, now: string): ErrorEvent {
  return {
    service: e.service,
    environment: e.environment,
    release: e.release ?? '',
    timestamp: now,
    fingerprint: fingerprint(e),
    error_type: errorTypeOf(e.stack_trace, e.error_message),
    error_message: e.error_message,
    stack_trace: e.stack_trace,
    severity: e.severity,
    context: e.context ?? {},
    trace_id: e.trace_id ?? '',
    user_id: e.user_id ?? '',
    breadcrumbs: e.breadcrumbs ?? [],
  };
}

export function spanToEvent(s: SpanInput): SpanEvent {
  return {
    service: s.service,
    environment: s.environment,
    release: s.release ?? '',
    trace_id: s.trace_id,
    span_id: s.span_id,
    parent_span_id: s.parent_span_id,
    operation: s.operation,
    start_time: utc(s.start_time),
    duration_ms: s.duration_ms,
    status: s.status,
    metadata: s.metadata ?? {},
  };
}

export function llmToEvent(r: LlmUsageInput, now: string): LlmEvent {
  return {
    service: r.service,
    environment: r.environment,
    release: r.release ?? '',
    timestamp: now,
    model: r.model,
    provider: r.provider,
    operation: r.operation,
    input_tokens: r.input_tokens,
    output_tokens: r.output_tokens,
    cost_usd: r.cost_usd,
    latency_ms: r.latency_ms,
    metadata: r.metadata ?? {},
  };
}
