import { drainLevel, MAX_RELEASE_LENGTH } from '@devtrail/kinds';
import type { FuzzKind } from '../generate/bodies.ts';
import { instant, json, text, whole } from './normalise.ts';

// What an accepted body must read back as through the read API, one record per event,
// derived from the body as the receiver parsed it (JSON.parse of the sent text) and the
// documented defaults (docs/api.md). Only the fields the read API returns are compared.

export type Table = 'logs' | 'errors' | 'spans' | 'llm';

export interface Expectation {
  table: Table;
  /** Finds the stored record among all of the table's rows. */
  matches(row: any): boolean;
  expected: Record<string, unknown>;
}

/** A log without a client timestamp is stamped with its receive time. */
export const RECEIVED_AT = Symbol('received_at');

const s = (v: unknown, def = '') => text((v as string | undefined) ?? def);
const validDate = (ms: number) => !Number.isNaN(new Date(ms).getTime());

function logRecords(b: any, marker: string): Expectation[] {
  return b.logs.map((l: any) => ({
    table: 'logs' as const,
    matches: (r: any) => r.service === marker,
    expected: {
      service: marker,
      environment: s(b.environment, 'production'),
      release: s(l.release ?? b.release),
      level: l.level,
      message: s(l.message),
      metadata: json(l.metadata ?? {}),
      trace_id: s(l.trace_id),
      span_id: s(l.span_id),
      request_id: s(l.request_id),
      context: s(l.context),
      timestamp: l.timestamp ? instant(l.timestamp) : RECEIVED_AT,
    },
  }));
}

function drainRecords(entries: any[], marker: string): Expectation[] {
  return entries.map((e) => {
    const metadata: Record<string, unknown> = { vercel: true };
    const put = (k: string, v: unknown) => {
      if (v !== undefined && v !== null && v !== '') metadata[k] = typeof v === 'number' ? v : json(v);
    };
    put('drain_id', e.id);
    put('source', e.source);
    put('type', e.type);
    put('host', e.host);
    put('path', e.path);
    put('status_code', e.statusCode); // a typed field: a number reads back as that number (Infinity cannot)
    put('deployment_id', e.deploymentId);
    put('entrypoint', e.entrypoint);
    put('region', e.executionRegion);
    put('proxy', e.proxy);
    return {
      table: 'logs' as const,
      matches: (r: any) => r.service === marker,
      expected: {
        service: marker,
        environment: s(e.environment || 'production'),
        release: text(String(e.deploymentId ?? '').slice(0, MAX_RELEASE_LENGTH)),
        level: drainLevel(e.level),
        message: s(e.message),
        metadata,
        trace_id: s(e.traceId),
        span_id: s(e.spanId),
        request_id: s(e.requestId),
        context: s(e.source),
        timestamp: validDate(e.timestamp) ? new Date(e.timestamp).toISOString() : RECEIVED_AT,
      },
    };
  });
}

function errorRecord(e: any, marker: string): Expectation {
  return {
    table: 'errors',
    matches: (r) => r.user_id === marker,
    expected: {
      service: s(e.service, 'unknown'),
      environment: s(e.environment, 'production'),
      release: s(e.release),
      error_message: text(e.error_message),
      stack_trace: text(e.stack_trace),
      severity: e.severity ?? 'medium',
      context: json(e.context ?? {}),
      trace_id: s(e.trace_id),
      user_id: marker,
      // Same instant; the text of a breadcrumb's timestamp may be normalised.
      breadcrumbs: (e.breadcrumbs ?? []).map((b: any) => ({ type: text(b.type), message: text(b.message), timestamp: instant(b.timestamp) })),
    },
  };
}

function spanRecord(sp: any): Expectation {
  const traceId = text(sp.trace_id);
  const spanId = text(sp.span_id);
  return {
    table: 'spans',
    matches: (r) => r.trace_id === traceId && r.span_id === spanId,
    expected: {
      service: s(sp.service, 'unknown'),
      environment: s(sp.environment, 'production'),
      release: s(sp.release),
      trace_id: traceId,
      span_id: spanId,
      parent_span_id: s(sp.parent_span_id),
      operation: text(sp.operation),
      start_time: instant(sp.start_time),
      duration_ms: whole(sp.duration_ms),
      status: sp.status ?? 'ok',
      metadata: json(sp.metadata ?? {}),
    },
  };
}

function llmRecord(u: any, marker: string): Expectation {
  return {
    table: 'llm',
    matches: (r) => r.service === marker,
    expected: {
      service: marker,
      model: text(u.model),
      provider: text(u.provider),
      calls: 1,
      input_tokens: whole(u.input_tokens),
      output_tokens: whole(u.output_tokens),
      // As sent (the effective cost_usd adds the price table's estimate where none was: docs/otlp.md#llm-cost).
      sent_cost_usd: u.cost_usd ?? 0,
      latency_p50_ms: whole(u.latency_ms),
    },
  };
}

/** The records an accepted body must become. `parsed` is the body as JSON.parse reads the sent text (an array of entries for the drain). */
export function expectedRecords(kind: FuzzKind, parsed: any, marker: string): Expectation[] {
  switch (kind) {
    case 'log':
      return logRecords(parsed, marker);
    case 'drain':
      return drainRecords(parsed, marker);
    case 'error':
      return [errorRecord(parsed, marker)];
    case 'span':
      return [spanRecord(parsed)];
    case 'llm':
      return [llmRecord(parsed, marker)];
  }
}

/** The stored row reduced to the expected record's fields (a received-at stamp and breadcrumb instants resolved). */
export function storedView(e: Expectation, row: any): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const k of Object.keys(e.expected)) view[k] = row[k];
  if (e.expected.timestamp === RECEIVED_AT) view.timestamp = row.timestamp === row.received_at ? RECEIVED_AT : row.timestamp;
  if (Array.isArray(row.breadcrumbs)) {
    view.breadcrumbs = row.breadcrumbs.map((b: any) =>
      b && typeof b.timestamp === 'string' && !Number.isNaN(Date.parse(b.timestamp)) ? { ...b, timestamp: instant(b.timestamp) } : b,
    );
  }
  return view;
}
