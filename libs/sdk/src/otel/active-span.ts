// Reads the active OpenTelemetry span, if an OTel API is registered, without
// importing @opentelemetry/api: the API keeps its singletons on globalThis
// under a versioned symbol and stores the active span under a fixed context key.
import type { SpanContext } from '../trace-context.js';

const API_KEY = Symbol.for('opentelemetry.js.api.1');
const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN');

interface OtelContextLike {
  getValue(key: symbol): unknown;
}
interface OtelSpanLike {
  spanContext(): { traceId: string; spanId: string; traceFlags?: number };
}
interface OtelGlobals {
  context?: { active(): OtelContextLike };
}

export function activeOtelSpanContext(): SpanContext | undefined {
  try {
    const api = (globalThis as Record<symbol, OtelGlobals | undefined>)[API_KEY];
    const span = api?.context?.active().getValue(SPAN_KEY) as OtelSpanLike | undefined;
    const ctx = span?.spanContext();
    if (!ctx || /^0+$/.test(ctx.traceId)) return undefined;
    return { traceId: ctx.traceId, spanId: ctx.spanId, sampled: ((ctx.traceFlags ?? 1) & 1) === 1 };
  } catch {
    return undefined;
  }
}
