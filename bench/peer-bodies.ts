import { randomBytes } from 'node:crypto';
import { OTLP_CONTENT_TYPES, OTLP_TYPES } from '@devtrail/otlp';

// The request bodies of the side-by-side comparison with the OpenTelemetry Collector
// (peer-compare.ts): the same logical records written each way a client sends them. A log
// line has a level, a message, a time, a trace and span id and five attributes (route,
// status, duration_ms, user_id, region); a span has a name, a kind, its times, parent and
// the same attributes; a metric data point (a record of a metrics export) is, by turns, a
// cumulative request counter, a latency histogram (eight bounds) or a gauge, with the route,
// status and region as attributes. 100 records a request by default, eight records a trace.

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)];
const ROUTES = ['GET /api/orders/:id', 'POST /api/checkout', 'GET /api/products', 'GET /api/cart', 'POST /api/login', 'PUT /api/profile'] as const;
const REGIONS = ['eu-west-1', 'us-east-1', 'ap-southeast-2'] as const;
const LEVELS = ['info', 'info', 'info', 'info', 'info', 'info', 'debug', 'warn', 'error'] as const;
const SEVERITY = { debug: 5, info: 9, warn: 13, error: 17 } as const;

interface Line {
  level: keyof typeof SEVERITY;
  message: string;
  route: string;
  status: number;
  ms: number;
  attrs: Record<string, string | number>;
  traceId: string;
  spanId: string;
  parentId: string;
  startMs: number;
}

function lines(n: number): Line[] {
  const now = Date.now();
  const out: Line[] = [];
  let traceId = '';
  let root = '';
  for (let i = 0; i < n; i++) {
    const first = i % 8 === 0;
    if (first) traceId = hex(16);
    const route = pick(ROUTES);
    const status = Math.random() < 0.93 ? 200 : pick([400, 404, 500]);
    const ms = Math.round(5 + Math.random() * 400);
    const spanId = hex(8);
    if (first) root = spanId;
    out.push({
      level: status >= 500 ? 'error' : pick(LEVELS),
      message: `${route.replace(':id', String(1000 + Math.floor(Math.random() * 90_000)))} ${status} in ${ms} ms`,
      route,
      status,
      ms,
      attrs: { route, status, duration_ms: ms, user_id: `user-${Math.floor(Math.random() * 50_000)}`, region: pick(REGIONS) },
      traceId,
      spanId,
      parentId: first ? '' : root,
      startMs: now - ms,
    });
  }
  return out;
}

const anyValue = (v: string | number) => (typeof v === 'number' ? { intValue: String(v) } : { stringValue: v });
const attributes = (a: Record<string, string | number>) => Object.entries(a).map(([key, v]) => ({ key, value: anyValue(v) }));
const nanos = (ms: number) => `${ms}000000`;
const resource = { attributes: [{ key: 'service.name', value: { stringValue: 'bench' } }] };

/** An ExportLogsServiceRequest as OTLP/JSON (ids in hex). */
function logsRequest(ls: Line[]) {
  return {
    resourceLogs: [
      {
        resource,
        scopeLogs: [
          {
            scope: { name: 'bench' },
            logRecords: ls.map((l) => ({
              timeUnixNano: nanos(l.startMs),
              severityNumber: SEVERITY[l.level],
              severityText: l.level.toUpperCase(),
              body: { stringValue: l.message },
              attributes: attributes(l.attrs),
              traceId: l.traceId,
              spanId: l.spanId,
            })),
          },
        ],
      },
    ],
  };
}

/** An ExportTraceServiceRequest as OTLP/JSON: server spans and their internal children. */
function traceRequest(ls: Line[]) {
  return {
    resourceSpans: [
      {
        resource,
        scopeSpans: [
          {
            scope: { name: 'bench' },
            spans: ls.map((l) => ({
              traceId: l.traceId,
              spanId: l.spanId,
              parentSpanId: l.parentId,
              name: l.route,
              kind: l.parentId ? 1 : 2,
              startTimeUnixNano: nanos(l.startMs),
              endTimeUnixNano: nanos(l.startMs + l.ms),
              attributes: attributes(l.attrs),
              status: { code: l.status >= 500 ? 2 : 0 },
            })),
          },
        ],
      },
    ],
  };
}

const BOUNDS = [5, 10, 25, 50, 100, 250, 500, 1000];

/** An ExportMetricsServiceRequest as OTLP/JSON: one data point a line, of three metrics by turns. */
function metricsRequest(ls: Line[]) {
  const start = nanos(ls[0] ? ls[0].startMs - 3600_000 : Date.now());
  const pointAttrs = (l: Line) => attributes({ route: l.route, status: l.status, region: String(l.attrs.region) });
  const base = (l: Line) => ({ attributes: pointAttrs(l), startTimeUnixNano: start, timeUnixNano: nanos(l.startMs) });
  const of = (turn: number) => ls.filter((_, i) => i % 3 === turn);
  const metrics = [
    {
      name: 'http.server.request.count',
      unit: '{request}',
      sum: { aggregationTemporality: 2, isMonotonic: true, dataPoints: of(0).map((l) => ({ ...base(l), asInt: String(l.ms * 7) })) },
    },
    {
      name: 'http.server.request.duration',
      unit: 'ms',
      histogram: {
        aggregationTemporality: 2,
        dataPoints: of(1).map((l) => {
          // Nine requests of about the line's duration: all in its bucket.
          const at = BOUNDS.findIndex((b) => l.ms <= b);
          const counts = BOUNDS.map(() => '0').concat('0');
          counts[at === -1 ? BOUNDS.length : at] = '9';
          return { ...base(l), count: '9', sum: l.ms * 9, min: l.ms, max: l.ms, explicitBounds: BOUNDS, bucketCounts: counts };
        }),
      },
    },
    { name: 'process.memory.usage', unit: 'By', gauge: { dataPoints: of(2).map((l) => ({ ...base(l), asDouble: l.ms * 1024.5 })) } },
  ].filter((m) => (m.sum ?? m.histogram ?? m.gauge)!.dataPoints.length > 0);
  return { resourceMetrics: [{ resource, scopeMetrics: [{ scope: { name: 'bench' }, metrics }] }] };
}

/** The same request as protobuf: ids as bytes, encoded by the published .proto types. */
function protobuf(type: typeof OTLP_TYPES.logsRequest, json: unknown): Buffer {
  const withBytes = JSON.parse(JSON.stringify(json), (key, v) => (/^(traceId|spanId|parentSpanId)$/.test(key) ? Buffer.from(v, 'hex') : v));
  return Buffer.from(type.encode(type.fromObject(withBytes)).finish());
}

export type BodyKind =
  | 'native-logs'
  | 'otlp-logs-json'
  | 'otlp-logs-protobuf'
  | 'otlp-traces-json'
  | 'otlp-traces-protobuf'
  | 'otlp-metrics-json'
  | 'otlp-metrics-protobuf';

export const BODY_KINDS: Record<BodyKind, { path: string; contentType: string; signal: 'logs' | 'traces' | 'metrics' }> = {
  'native-logs': { path: '/ingest/logs', contentType: 'application/json', signal: 'logs' },
  'otlp-logs-json': { path: '/v1/logs', contentType: OTLP_CONTENT_TYPES.json, signal: 'logs' },
  'otlp-logs-protobuf': { path: '/v1/logs', contentType: OTLP_CONTENT_TYPES.protobuf, signal: 'logs' },
  'otlp-traces-json': { path: '/v1/traces', contentType: OTLP_CONTENT_TYPES.json, signal: 'traces' },
  'otlp-traces-protobuf': { path: '/v1/traces', contentType: OTLP_CONTENT_TYPES.protobuf, signal: 'traces' },
  'otlp-metrics-json': { path: '/v1/metrics', contentType: OTLP_CONTENT_TYPES.json, signal: 'metrics' },
  'otlp-metrics-protobuf': { path: '/v1/metrics', contentType: OTLP_CONTENT_TYPES.protobuf, signal: 'metrics' },
};

/** One request body of `n` records. */
export function body(kind: BodyKind, n: number): Buffer {
  const ls = lines(n);
  switch (kind) {
    case 'native-logs':
      return Buffer.from(
        JSON.stringify({
          service: 'bench',
          logs: ls.map((l) => ({
            level: l.level,
            message: l.message,
            timestamp: new Date(l.startMs).toISOString(),
            metadata: l.attrs,
            trace_id: l.traceId,
            span_id: l.spanId,
          })),
        }),
      );
    case 'otlp-logs-json':
      return Buffer.from(JSON.stringify(logsRequest(ls)));
    case 'otlp-logs-protobuf':
      return protobuf(OTLP_TYPES.logsRequest, logsRequest(ls));
    case 'otlp-traces-json':
      return Buffer.from(JSON.stringify(traceRequest(ls)));
    case 'otlp-traces-protobuf':
      return protobuf(OTLP_TYPES.traceRequest, traceRequest(ls));
    case 'otlp-metrics-json':
      return Buffer.from(JSON.stringify(metricsRequest(ls)));
    case 'otlp-metrics-protobuf':
      return protobuf(OTLP_TYPES.metricsRequest, metricsRequest(ls));
  }
}

/** Records a 200 accepted: all of them, less those an OTLP partial success names (JSON or protobuf answer). */
export function accepted(kind: BodyKind, n: number, status: number, answer: Buffer): number {
  if (status !== 200) return 0;
  if (kind === 'native-logs') return JSON.parse(answer.toString()).count ?? 0;
  const signal = BODY_KINDS[kind].signal;
  const field = { logs: 'rejectedLogRecords', traces: 'rejectedSpans', metrics: 'rejectedDataPoints' }[signal];
  let partial: Record<string, unknown> | undefined;
  if (answer.length > 0) {
    if (kind.endsWith('json')) partial = JSON.parse(answer.toString()).partialSuccess;
    else {
      const type = { logs: OTLP_TYPES.logsResponse, traces: OTLP_TYPES.traceResponse, metrics: OTLP_TYPES.metricsResponse }[signal];
      partial = (type.toObject(type.decode(answer), { longs: Number }) as { partialSuccess?: Record<string, unknown> }).partialSuccess;
    }
  }
  return n - Number(partial?.[field] ?? 0);
}
