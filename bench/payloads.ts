import { randomBytes, randomUUID } from 'node:crypto';

// Request bodies shaped like what the SDK sends from a busy web service: a log batch
// with levels, request/trace ids and a little metadata per line, plus error reports,
// spans and LLM calls. Probe events carry a unique marker whose arrival in the column
// store is timed (see visibility.ts).

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)];

const ROUTES = ['GET /api/orders/:id', 'POST /api/checkout', 'GET /api/products', 'GET /api/cart', 'POST /api/login', 'GET /health', 'PUT /api/profile'] as const;
const REGIONS = ['eu-west-1', 'us-east-1', 'ap-southeast-2'] as const;
const LEVELS = ['info', 'info', 'info', 'info', 'info', 'info', 'info', 'debug', 'debug', 'warn', 'error'] as const;
const SERVICES = ['checkout-api', 'catalog-api', 'auth-api'] as const;

export function logLine(now: string, traceId: string) {
  const route = pick(ROUTES);
  const status = Math.random() < 0.93 ? 200 : pick([400, 404, 409, 500, 503]);
  const ms = Math.round(5 + Math.random() * 400);
  const level = status >= 500 ? 'error' : pick(LEVELS);
  return {
    level,
    message: `${route.replace(':id', String(1000 + Math.floor(Math.random() * 90000)))} ${status} in ${ms}ms`,
    timestamp: now,
    metadata: {
      route,
      status,
      duration_ms: ms,
      user_id: `user-${Math.floor(Math.random() * 50_000)}`,
      region: pick(REGIONS),
      cache: Math.random() < 0.6 ? 'hit' : 'miss',
    },
    trace_id: traceId,
    span_id: hex(8),
    request_id: randomUUID(),
    context: 'http',
  };
}

/** `size` log lines of one service, a handful per request trace; with `probe`, the first line's message is the marker. */
export function logLines(size: number, probe?: string) {
  const now = new Date().toISOString();
  const logs = [];
  let traceId = hex(16);
  for (let i = 0; i < size; i++) {
    if (i % 8 === 0) traceId = hex(16); // a handful of lines per request trace
    logs.push(logLine(now, traceId));
  }
  if (probe) logs[0].message = probe;
  return { service: pick(SERVICES), environment: 'production', release: 'v1.42.0', logs };
}

/** A log batch as the SDK would send it; with `probe`, the first line's message is the marker. */
export function logBatch(size: number, probe?: string): string {
  return JSON.stringify(logLines(size, probe));
}

/** A pool of ready bodies refreshed in the background, so the load loop spends no CPU building them. */
export class BodyPool<B extends string | Buffer = string> {
  private bodies: B[] = [];
  private next = 0;
  private timer: NodeJS.Timeout;

  constructor(
    private readonly batch: number,
    size = 48,
    private readonly build: (batch: number) => B = logBatch as unknown as (batch: number) => B,
  ) {
    for (let i = 0; i < size; i++) this.bodies.push(build(batch));
    // Keep timestamps current: replace a few bodies every 100 ms.
    this.timer = setInterval(() => {
      for (let i = 0; i < 4; i++) this.bodies[Math.floor(Math.random() * this.bodies.length)] = this.build(this.batch);
    }, 100);
    this.timer.unref();
  }

  take(): B {
    const b = this.bodies[this.next];
    this.next = (this.next + 1) % this.bodies.length;
    return b;
  }

  close() {
    clearInterval(this.timer);
  }
}

export function errorReport(probe: string): string {
  const order = 1000 + Math.floor(Math.random() * 90000);
  return JSON.stringify({
    service: 'checkout-api',
    environment: 'production',
    release: 'v1.42.0',
    error_message: probe,
    stack_trace: `PaymentDeclinedError: ${probe}\n    at chargeCard (/srv/app/src/payments.js:88:13)\n    at checkout (/srv/app/src/checkout.js:41:7)\n    at async handler (/srv/app/src/routes.js:12:3)`,
    severity: pick(['low', 'medium', 'high', 'critical']),
    context: { order_id: order, amount_cents: Math.floor(Math.random() * 20000), currency: 'EUR' },
    trace_id: hex(16),
    user_id: `user-${Math.floor(Math.random() * 50_000)}`,
    breadcrumbs: [
      { type: 'http', message: 'POST /api/checkout', timestamp: new Date(Date.now() - 120).toISOString() },
      { type: 'db', message: 'SELECT * FROM orders WHERE id = $1', timestamp: new Date(Date.now() - 80).toISOString() },
    ],
  });
}

/** The probe marker of a span is its span_id (16 hex). */
export function span(spanId: string): string {
  return JSON.stringify({
    service: 'checkout-api',
    environment: 'production',
    release: 'v1.42.0',
    trace_id: hex(16),
    span_id: spanId,
    parent_span_id: Math.random() < 0.5 ? '' : hex(8),
    operation: pick(ROUTES),
    start_time: new Date(Date.now() - 50).toISOString(),
    duration_ms: Math.round(Math.random() * 300 * 10) / 10,
    status: Math.random() < 0.95 ? 'ok' : 'error',
    metadata: { 'http.status_code': 200, 'db.statements': Math.floor(Math.random() * 6) },
  });
}

/**
 * The probe marker of an LLM call is its service name: the read API aggregates usage by
 * (day, model, provider, service), so that is the finest thing it can show per call.
 */
export function llmCall(service: string): string {
  return JSON.stringify({
    service,
    environment: 'production',
    model: pick(['gpt-4o-mini', 'gpt-4o', 'claude-3-5-haiku']),
    provider: pick(['openai', 'anthropic']),
    operation: 'chat.completions',
    input_tokens: Math.floor(200 + Math.random() * 3000),
    output_tokens: Math.floor(20 + Math.random() * 800),
    cost_usd: Math.round(Math.random() * 0.02 * 1e6) / 1e6,
    latency_ms: Math.round(300 + Math.random() * 2500),
    metadata: { prompt_version: 'v3', conversation: hex(6) },
  });
}

export const newProbeId = (run: string, seq: number) => `bench-probe ${run}-${seq}`;

/** A UUID version 7 (its first 48 bits the time in ms), what @devtrail/sdk sends as an Idempotency-Key. */
export function uuidv7(): string {
  const x = Date.now().toString(16).padStart(12, '0') + hex(10);
  const variant = ((Number.parseInt(x[16], 16) & 0x3) | 0x8).toString(16);
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-7${x.slice(13, 16)}-${variant}${x.slice(17, 20)}-${x.slice(20, 32)}`;
}
export const newSpanId = () => hex(8);
