import type { Envelope } from '@devtrail/contract';

// Kafka envelope -> ClickHouse row, one mapper per table. Timestamps become
// 'YYYY-MM-DD hh:mm:ss.mmm' UTC, the text DateTime64(3, 'UTC') parses without settings.

// What the receiver writes (toISOString): converted by slicing, without a Date round trip.
const CANONICAL_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let lastIso = '';
let lastCh = '';

/** ISO 8601 -> ClickHouse text. The last answer is kept: a batch's events share their received_at. */
export function toChTime(iso: string): string {
  if (iso !== lastIso) {
    lastCh = iso.length === 24 && CANONICAL_ISO.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 23)}` : new Date(iso).toISOString().slice(0, 23).replace('T', ' ');
    lastIso = iso;
  }
  return lastCh;
}

export function fromChTime(ch: string): string {
  return `${ch.replace(' ', 'T')}${ch.length === 19 ? '.000' : ''}Z`;
}

type Row = Record<string, unknown>;

const common = (e: Envelope) => ({ project_id: e.project_id, event_id: e.event_id, service: e.data.service, environment: e.data.environment, release: e.data.release });

export function toRow(e: Envelope): Row {
  switch (e.kind) {
    case 'log': {
      // The hot path: common columns spelled out rather than spread.
      const d = (e as Envelope<'log'>).data;
      return {
        project_id: e.project_id,
        event_id: e.event_id,
        service: d.service,
        environment: d.environment,
        release: d.release,
        timestamp: toChTime(d.timestamp),
        received_at: toChTime(e.received_at),
        level: d.level,
        message: d.message,
        metadata: JSON.stringify(d.metadata),
        trace_id: d.trace_id,
        span_id: d.span_id,
        request_id: d.request_id,
        context: d.context,
      };
    }
    case 'error': {
      const d = (e as Envelope<'error'>).data;
      return {
        ...common(e),
        timestamp: toChTime(d.timestamp),
        fingerprint: d.fingerprint,
        error_type: d.error_type,
        error_message: d.error_message,
        stack_trace: d.stack_trace,
        severity: d.severity,
        context: JSON.stringify(d.context),
        trace_id: d.trace_id,
        user_id: d.user_id,
        breadcrumbs: JSON.stringify(d.breadcrumbs),
      };
    }
    case 'span': {
      const d = (e as Envelope<'span'>).data;
      return {
        ...common(e),
        trace_id: d.trace_id,
        span_id: d.span_id,
        parent_span_id: d.parent_span_id,
        operation: d.operation,
        start_time: toChTime(d.start_time),
        duration_ms: d.duration_ms,
        status: d.status,
        metadata: JSON.stringify(d.metadata),
        received_at: toChTime(e.received_at),
      };
    }
    case 'llm': {
      const d = (e as Envelope<'llm'>).data;
      return {
        ...common(e),
        timestamp: toChTime(d.timestamp),
        model: d.model,
        provider: d.provider,
        operation: d.operation,
        input_tokens: d.input_tokens,
        output_tokens: d.output_tokens,
        cost_usd: d.cost_usd,
        latency_ms: d.latency_ms,
        metadata: JSON.stringify(d.metadata),
      };
    }
  }
}
