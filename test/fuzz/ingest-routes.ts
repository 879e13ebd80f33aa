// Every ingest route with one valid body, for the suites that break bodies on each route.
// A route added to the receiver is one more line here; broken-bodies.test.ts fails while
// /openapi.json declares an ingest route this list lacks.

export interface IngestRouteSample {
  path: string;
  /** A body the route answers 200 to, so a broken variant of it is broken by the variant alone. */
  valid: string;
}

const now = () => new Date().toISOString();

export const INGEST_ROUTE_SAMPLES: IngestRouteSample[] = [
  { path: '/ingest/logs', valid: JSON.stringify({ service: 'fuzz', logs: [{ level: 'info', message: 'broken-body sample' }] }) },
  { path: '/ingest/errors', valid: JSON.stringify({ error_message: 'boom', stack_trace: 'Error: boom\n    at f (/a.js:1:1)' }) },
  { path: '/ingest/traces', valid: JSON.stringify({ trace_id: 'bb-trace', span_id: 'bb-span', operation: 'GET /', start_time: now(), duration_ms: 1 }) },
  { path: '/ingest/llm', valid: JSON.stringify({ model: 'm', provider: 'p', operation: 'chat', input_tokens: 1, output_tokens: 1, latency_ms: 1 }) },
  { path: '/ingest/sessions', valid: JSON.stringify({ release: 'r1', session_id: 'bb-session', status: 'ok', start_time: now() }) },
  {
    path: '/ingest/metrics',
    valid: JSON.stringify({ service: 'fuzz', metrics: [{ metric: 'bb.requests', type: 'sum', temporality: 'delta', monotonic: true, value: 1, time: now() }] }),
  },
  { path: '/ingest/scores', valid: JSON.stringify({ name: 'bb.score', value: 0.5, trace_id: 'bb-trace', comment: 'broken-body sample' }) },
  { path: '/ingest/drain', valid: JSON.stringify([{ message: 'drained', timestamp: Date.now(), level: 'info' }]) },
  {
    path: '/ingest/batch',
    valid: JSON.stringify({
      service: 'fuzz',
      logs: [{ level: 'info', message: 'broken-body batch sample' }],
      spans: [{ trace_id: 'bb-trace', span_id: 'bb-span', operation: 'GET /', start_time: now(), duration_ms: 1 }],
    }),
  },
];
