// W3C trace context (https://www.w3.org/TR/trace-context/) plus the simpler
// x-trace-id / x-span-id / x-request-id headers some proxies and clients send.
import { getHeader, type HeaderSource } from './http/headers.js';
import { isValidSpanId, isValidTraceId } from './ids.js';
import { MAX_ID_LENGTH } from './limits.js';

export interface SpanContext {
  traceId: string;
  spanId: string;
  /** The W3C sampled flag: kept when propagating; an unsampled trace's spans are not sent (docs/sdk.md#sampling). */
  sampled?: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

export function parseTraceparent(value: string | null | undefined): SpanContext | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  if (version === 'ff') return undefined;
  // Version 00 has exactly four fields; later versions may append more, which we ignore.
  if (version === '00' && rest !== undefined) return undefined;
  if (!isValidTraceId(traceId) || !isValidSpanId(spanId)) return undefined;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

export function formatTraceparent(ctx: SpanContext): string {
  return `00-${ctx.traceId}-${ctx.spanId}-${ctx.sampled === false ? '00' : '01'}`;
}

export interface IncomingTraceContext {
  /** Trace to join; undefined means start a new trace. */
  traceId?: string;
  /** The caller's span, which becomes the parent of the server span. */
  parentSpanId?: string;
  requestId?: string;
  sampled?: boolean;
}

function normalizeHexId(value: string | undefined): string | undefined {
  // Lenient on the fallback headers: accept upper case and UUID-style dashes.
  return value?.trim().replace(/-/g, '').toLowerCase();
}

export function extractTraceContext(headers: HeaderSource | undefined): IncomingTraceContext {
  const out: IncomingTraceContext = {};
  const requestId = getHeader(headers, 'x-request-id')?.trim();
  if (requestId) out.requestId = requestId.slice(0, MAX_ID_LENGTH);

  const parent = parseTraceparent(getHeader(headers, 'traceparent'));
  if (parent) {
    out.traceId = parent.traceId;
    out.parentSpanId = parent.spanId;
    out.sampled = parent.sampled;
    return out;
  }
  const traceId = normalizeHexId(getHeader(headers, 'x-trace-id'));
  if (isValidTraceId(traceId)) {
    out.traceId = traceId;
    const spanId = normalizeHexId(getHeader(headers, 'x-span-id'));
    if (isValidSpanId(spanId)) out.parentSpanId = spanId;
  }
  return out;
}

/** Headers to put on an outgoing request so the callee joins this trace. */
export function createTraceHeaders(ctx: SpanContext, requestId?: string): Record<string, string> {
  const headers: Record<string, string> = {
    traceparent: formatTraceparent(ctx),
    'x-trace-id': ctx.traceId,
    'x-span-id': ctx.spanId,
  };
  if (requestId) headers['x-request-id'] = requestId;
  return headers;
}
