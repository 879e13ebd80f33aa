import type { Type } from 'protobufjs';
import { OTLP_TYPES } from './proto-root.ts';
import { plainDecode, plainFromObject } from './plain-messages.ts';
import type { LogsRequest, MetricsRequest, TraceRequest } from './otlp-types.ts';

// Request bodies -> OTLP messages. Protobuf goes through the decoder protobufjs builds
// from the .proto files; OTLP/JSON (already parsed by the HTTP layer) goes through the
// same types' fromObject, which checks the structure and coerces scalars; both as plain
// objects (plain-messages.ts). Either way the mapper sees one shape.

export type OtlpEncoding = 'protobuf' | 'json';

/** The body is not an OTLP message of the expected type: the whole request is refused (400). */
export class OtlpDecodeError extends Error {}

// OTLP/JSON differs from the proto3 JSON mapping in one point: trace and span ids are
// hex strings, not base64 ("OTLP/HTTP", JSON Protobuf Encoding). These are the id fields.
const ID_LENGTHS: Record<string, number> = { traceId: 16, spanId: 8, parentSpanId: 8 };

function hexIds(record: unknown): void {
  if (!record || typeof record !== 'object') return;
  const r = record as Record<string, unknown>;
  for (const field of Object.keys(ID_LENGTHS)) {
    const v = r[field];
    if (typeof v !== 'string') continue;
    if (v !== '' && !(v.length === ID_LENGTHS[field] * 2 && /^[0-9a-fA-F]+$/.test(v))) {
      throw new OtlpDecodeError(`${field} must be ${ID_LENGTHS[field] * 2} hex characters in OTLP/JSON, got ${JSON.stringify(v.slice(0, 40))}`);
    }
    r[field] = Buffer.from(v, 'hex');
  }
}

const each = (v: unknown, f: (item: unknown) => void) => {
  if (Array.isArray(v)) v.forEach(f);
};
const field = (v: unknown, name: string): unknown => (v && typeof v === 'object' ? (v as Record<string, unknown>)[name] : undefined);

function jsonLogIds(body: unknown): void {
  each(field(body, 'resourceLogs'), (rl) => each(field(rl, 'scopeLogs'), (sl) => each(field(sl, 'logRecords'), hexIds)));
}

function jsonSpanIds(body: unknown): void {
  each(field(body, 'resourceSpans'), (rs) =>
    each(field(rs, 'scopeSpans'), (ss) =>
      each(field(ss, 'spans'), (span) => {
        hexIds(span);
        each(field(span, 'links'), hexIds);
      }),
    ),
  );
}

const POINT_FIELDS = ['gauge', 'sum', 'histogram', 'exponentialHistogram', 'summary'] as const;

function jsonExemplarIds(body: unknown): void {
  each(field(body, 'resourceMetrics'), (rm) =>
    each(field(rm, 'scopeMetrics'), (sm) =>
      each(field(sm, 'metrics'), (metric) => {
        for (const f of POINT_FIELDS) each(field(field(metric, f), 'dataPoints'), (p) => each(field(p, 'exemplars'), hexIds));
      }),
    ),
  );
}

/** How a message is made: as plain objects (plain-messages.ts), or by protobufjs itself (what the plain form is held equal to). */
export interface MessageMaker {
  decode(type: Type, bytes: Uint8Array): unknown;
  fromObject(type: Type, object: Record<string, unknown>): unknown;
}

const PLAIN: MessageMaker = { decode: plainDecode, fromObject: plainFromObject };
export const PROTOBUFJS: MessageMaker = { decode: (type, bytes) => type.decode(bytes), fromObject: (type, object) => type.fromObject(object) };

function decode<T>(type: Type, body: unknown, encoding: OtlpEncoding, jsonIds: (b: unknown) => void, make: MessageMaker): T {
  try {
    if (encoding === 'protobuf') {
      if (!(body instanceof Uint8Array)) throw new OtlpDecodeError('expected a binary protobuf body');
      return make.decode(type, body) as T;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OtlpDecodeError(`expected a JSON object (${type.name})`);
    jsonIds(body);
    return make.fromObject(type, body as Record<string, unknown>) as T;
  } catch (err) {
    if (err instanceof OtlpDecodeError) throw err;
    // protobufjs throws plain Errors (truncated input, bad wire type, wrong JSON type);
    // very deep nesting ends in a RangeError. All of them mean "not decodable".
    throw new OtlpDecodeError(`not a valid ${type.name} (${encoding}): ${(err as Error).message}`);
  }
}

export const decodeLogsRequest = (body: unknown, encoding: OtlpEncoding, make = PLAIN): LogsRequest =>
  decode<LogsRequest>(OTLP_TYPES.logsRequest, body, encoding, jsonLogIds, make);

export const decodeTraceRequest = (body: unknown, encoding: OtlpEncoding, make = PLAIN): TraceRequest =>
  decode<TraceRequest>(OTLP_TYPES.traceRequest, body, encoding, jsonSpanIds, make);

// Metrics take protobufjs's own messages: their data points hold repeated scalars (bucket
// counts, bounds), which the plain form does not build (plain-messages.ts).
export const decodeMetricsRequest = (body: unknown, encoding: OtlpEncoding, make = PROTOBUFJS): MetricsRequest =>
  decode<MetricsRequest>(OTLP_TYPES.metricsRequest, body, encoding, jsonExemplarIds, make);
