import { ingest } from './dashboard.ts';

// A 40-span trace over 12 services for the trace page's tests and screenshots: a frontend
// root, a tree four levels deep, database spans with attributes, a failed span, and one span
// with events and links as the OTLP mapping keeps them (docs/otlp.md, "Spans").

export const BIG = {
  traceId: 'f00dbabe0000000000000000000000a1',
  linkedTraceId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  services: ['frontend', 'gateway', 'checkout', 'cart', 'pricing', 'inventory', 'payments', 'fraud', 'shipping', 'email', 'search', 'recommend'],
  spans: 40,
  /** The span with events and links. */
  eventSpan: 'big-07',
  /** The deepest span, far down the waterfall. */
  lastSpan: 'big-39',
};

export function bigTraceSpans(now: number): Array<Record<string, unknown>> {
  const t0 = now - 3 * 60_000;
  const out: Array<Record<string, unknown>> = [];
  const id = (i: number) => `big-${String(i).padStart(2, '0')}`;
  for (let i = 0; i < BIG.spans; i++) {
    // Parents: 0 is the root; 1-3 under it; then each under one of the three before it, so the tree goes deep.
    const parent = i === 0 ? '' : i <= 3 ? id(0) : id(i - 1 - (i % 3));
    const depthStart = i === 0 ? 0 : 5 + i * 20;
    const duration = i === 0 ? 1400 : Math.max(3, 600 - i * 14);
    const db = i % 5 === 4;
    out.push({
      service: BIG.services[i % BIG.services.length],
      environment: 'production',
      release: 'v2.0.0',
      trace_id: BIG.traceId,
      span_id: id(i),
      parent_span_id: parent,
      operation: i === 0 ? 'GET /checkout/confirm' : db ? `SELECT orders_${i}` : `${BIG.services[i % BIG.services.length]}.handle step ${i}`,
      start_time: new Date(t0 + depthStart).toISOString(),
      duration_ms: duration,
      status: i === 22 ? 'error' : 'ok',
      metadata: {
        'http.route': i === 0 ? '/checkout/confirm' : `/internal/${i}`,
        tenant: 'acme',
        ...(db ? { 'db.system': 'postgresql', 'db.statement': `SELECT * FROM orders_${i} WHERE id = $1` } : {}),
        ...(id(i) === BIG.eventSpan
          ? {
              'otel.events': [
                { name: 'cache.miss', timestamp: new Date(t0 + depthStart + 12).toISOString(), attributes: { key: 'price:42' } },
                { name: 'retry', timestamp: new Date(t0 + depthStart + 80).toISOString(), attributes: { attempt: 2 } },
              ],
              'otel.links': [{ trace_id: BIG.linkedTraceId, span_id: 'span-root' }],
              'otel.resource': { 'host.name': 'web-7', 'k8s.pod.name': 'pricing-5d8f' },
            }
          : {}),
      },
    });
  }
  return out;
}

export async function sendBigTrace(base: string, key: string, now = Date.now()): Promise<void> {
  for (const s of bigTraceSpans(now)) {
    const r = await ingest(base, key, 'traces', s);
    if (r.status !== 200) throw new Error(`span refused: ${r.status} ${JSON.stringify(r.body)}`);
  }
}
