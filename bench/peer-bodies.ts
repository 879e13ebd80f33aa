import { randomBytes } from 'node:crypto';
import { OTLP_CONTENT_TYPES, OTLP_TYPES } from '@devtrail/otlp';

// The request bodies of the side-by-side comparison with the OpenTelemetry Collector
// (peer-compare.ts): the same logical records written each way a client sends them. A log
// line has a level, a message, a time, a trace and span id and five attributes (route,
// status, duration_ms, user_id, region); a span has a name, a kind, its times, parent and
// the same attributes. 100 records a request by default, eight records a trace.

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

/** The same request as protobuf: ids as bytes, encoded by the published .proto types. */
function protobuf(type: typeof OTLP_TYPES.logsRequest, json: unknown): Buffer {
  const withBytes = JSON.parse(JSON.stringify(json), (key, v) => (/^(traceId|spanId|parentSpanId)$/.test(key) ? Buffer.from(v, 'hex') : v));
  return Buffer.from(type.encode(type.fromObject(withBytes)).finish());
}

export type BodyKind = 'native-logs' | 'otlp-logs-json' | 'otlp-logs-protobuf' | 'otlp-traces-json' | 'otlp-traces-protobuf';

export const BODY_KINDS: Record<BodyKind, { path: string; contentType: string; signal: 'logs' | 'traces' }> = {
  'native-logs': { path: '/ingest/logs', contentType: 'application/json', signal: 'logs' },
  'otlp-logs-json': { path: '/v1/logs', contentType: OTLP_CONTENT_TYPES.json, signal: 'logs' },
  'otlp-logs-protobuf': { path: '/v1/logs', contentType: OTLP_CONTENT_TYPES.protobuf, signal: 'logs' },
  'otlp-traces-json': { path: '/v1/traces', contentType: OTLP_CONTENT_TYPES.json, signal: 'traces' },
  'otlp-traces-protobuf': { path: '/v1/traces', contentType: OTLP_CONTENT_TYPES.protobuf, signal: 'traces' },
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
  }
}

/** Records a 200 accepted: all of them, less those an OTLP partial success names (JSON or protobuf answer). */
export function accepted(kind: BodyKind, n: number, status: number, answer: Buffer): number {
  if (status !== 200) return 0;
  if (kind === 'native-logs') return JSON.parse(answer.toString()).count ?? 0;
  const signal = BODY_KINDS[kind].signal;
  const field = signal === 'logs' ? 'rejectedLogRecords' : 'rejectedSpans';
  let partial: Record<string, unknown> | undefined;
  if (answer.length > 0) {
    if (kind.endsWith('json')) partial = JSON.parse(answer.toString()).partialSuccess;
    else {
      const type = signal === 'logs' ? OTLP_TYPES.logsResponse : OTLP_TYPES.traceResponse;
      partial = (type.toObject(type.decode(answer), { longs: Number }) as { partialSuccess?: Record<string, unknown> }).partialSuccess;
    }
  }
  return n - Number(partial?.[field] ?? 0);
}
