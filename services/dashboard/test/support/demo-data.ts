import { ingest } from './dashboard.ts';

// A small, realistic project for the explorer's browser tests and screenshots: logs of six
// services with metadata (users, request ids, durations), errors of a few kinds (one whose
// message repeats its type), traces across services, LLM calls with features and users.
// Deterministic (no randomness) so that tests can count what they expect.

export const DEMO = {
  services: ['checkout', 'cart', 'search', 'auth', 'payments', 'email'],
  traceId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  slowTraceId: 'b7c8d9e0f1a2b3c4d5e6f708192a3b4c',
  /** The user whose logs the tests look for by metadata. */
  user: 'u_1042',
};

const LEVELS = ['debug', 'info', 'info', 'info', 'warn', 'info', 'debug', 'error'] as const;

/** Logs over the last `minutes`, `perService` per service, newest last. */
export function demoLogs(now: number, perService = 30, minutes = 50) {
  const out: Array<{ service: string; logs: Array<Record<string, unknown>> }> = [];
  DEMO.services.forEach((service, si) => {
    const logs = Array.from({ length: perService }, (_, i) => {
      const n = si * perService + i;
      const level = LEVELS[n % LEVELS.length];
      const ms = 20 + ((n * 37) % 900);
      const user = n % 7 === 0 ? DEMO.user : `u_${1000 + ((n * 13) % 97)}`;
      const message =
        level === 'error'
          ? `upstream timeout after ${ms} ms calling ${service}-db`
          : level === 'warn'
            ? `slow request GET /api/${service}/${n} took ${ms} ms`
            : level === 'debug'
              ? `cache miss for key ${service}:${n % 20}`
              : `GET /api/${service}/${n} 200 in ${ms} ms`;
      return {
        level,
        message,
        timestamp: new Date(now - (minutes * 60_000 * (perService - i)) / perService - si * 1000).toISOString(),
        metadata: { user_id: user, request_id: `req_${(n * 7919).toString(16).padStart(6, '0')}`, duration_ms: ms, region: ['eu-west-1', 'us-east-1'][n % 2] },
        request_id: `req_${(n * 7919).toString(16).padStart(6, '0')}`,
        ...(service === 'checkout' && i === perService - 1 ? { trace_id: DEMO.traceId, span_id: 'span-root' } : {}),
      };
    });
    out.push({ service, logs });
  });
  return out;
}

export async function sendDemoData(base: string, key: string, now = Date.now()): Promise<void> {
  const ok = async (r: Promise<{ status: number; body: unknown }>) => {
    const res = await r;
    if (res.status !== 200) throw new Error(`demo data refused: ${res.status} ${JSON.stringify(res.body)}`);
  };
  for (const { service, logs } of demoLogs(now)) {
    await ok(ingest(base, key, 'logs', { service, environment: service === 'email' ? 'staging' : 'production', release: 'v1.4.2', logs }));
  }
  const errors = [
    { error_type: 'TimeoutError', error_message: 'TimeoutError: operation timed out after 5000 ms', service: 'payments', severity: 'high', trace_id: DEMO.traceId },
    { error_type: 'TypeError', error_message: "Cannot read properties of undefined (reading 'total')", service: 'checkout', severity: 'high' },
    { error_type: 'ValidationError', error_message: 'email is not valid', service: 'auth', severity: 'low' },
    { error_type: 'RangeError', error_message: 'Invalid array length', service: 'search', severity: 'medium' },
  ];
  for (const e of errors) {
    await ok(
      ingest(base, key, 'errors', {
        ...e,
        environment: 'production',
        release: 'v1.4.2',
        stack_trace: `${e.error_message.startsWith(e.error_type) ? '' : `${e.error_type}: `}${e.error_message}\n    at handler (src/${e.service}.ts:42:17)\n    at run (src/server.ts:88:5)`,
        user_id: DEMO.user,
        timestamp: new Date(now - 3 * 60_000).toISOString(),
      }),
    );
  }
  const t0 = now - 4 * 60_000;
  const span = (s: Record<string, unknown>) => ({ environment: 'production', release: 'v1.4.2', ...s });
  const spans = [
    span({
      service: 'checkout',
      trace_id: DEMO.traceId,
      span_id: 'span-root',
      parent_span_id: '',
      operation: 'POST /api/checkout',
      start_time: new Date(t0).toISOString(),
      duration_ms: 420,
    }),
    span({
      service: 'cart',
      trace_id: DEMO.traceId,
      span_id: 'span-cart',
      parent_span_id: 'span-root',
      operation: 'SELECT cart_items',
      start_time: new Date(t0 + 12).toISOString(),
      duration_ms: 35,
    }),
    span({
      service: 'payments',
      trace_id: DEMO.traceId,
      span_id: 'span-pay',
      parent_span_id: 'span-root',
      operation: 'payment.charge (stripe) with a long operation name that does not fit',
      start_time: new Date(t0 + 60).toISOString(),
      duration_ms: 300,
      status: 'error',
    }),
    span({
      service: 'email',
      trace_id: DEMO.traceId,
      span_id: 'span-mail',
      parent_span_id: 'span-root',
      operation: 'send receipt',
      start_time: new Date(t0 + 410).toISOString(),
      duration_ms: 6,
    }),
    span({
      service: 'search',
      trace_id: DEMO.slowTraceId,
      span_id: 'q-root',
      parent_span_id: '',
      operation: 'GET /api/search',
      start_time: new Date(t0 + 30_000).toISOString(),
      duration_ms: 1840,
    }),
    span({
      service: 'search',
      trace_id: DEMO.slowTraceId,
      span_id: 'q-es',
      parent_span_id: 'q-root',
      operation: 'elasticsearch query',
      start_time: new Date(t0 + 30_010).toISOString(),
      duration_ms: 1700,
    }),
    span({
      service: 'cart',
      trace_id: 'c0ffee00c0ffee00c0ffee00c0ffee00',
      span_id: 'c-root',
      parent_span_id: '',
      operation: 'GET /api/cart',
      start_time: new Date(t0 + 60_000).toISOString(),
      duration_ms: 14,
    }),
  ];
  for (const s of spans) await ok(ingest(base, key, 'traces', s));
  const features = ['search', 'summary', 'chat', 'search', 'search'];
  for (let i = 0; i < 20; i++) {
    const claude = i % 3 === 0;
    await ok(
      ingest(base, key, 'llm', {
        service: 'assistant',
        environment: 'production',
        model: claude ? 'claude-3-5-sonnet' : 'gpt-4o',
        provider: claude ? 'anthropic' : 'openai',
        operation: 'chat',
        input_tokens: 800 + i * 40,
        output_tokens: 200 + i * 10,
        cost_usd: claude ? 0.0135 : 0.0105,
        latency_ms: 600 + ((i * 173) % 1400),
        metadata: { feature: features[i % features.length], user_id: i % 4 === 0 ? DEMO.user : `u_${2000 + i}`, ...(i === 0 ? { trace_id: DEMO.traceId } : {}) },
      }),
    );
  }
}
