import protobuf, { type Field, type Type } from 'protobufjs';
import { OtlpDecodeError, type OtlpEncoding } from './decode.ts';
import { OTLP_TYPES } from './proto-root.ts';
import { MAX_OTLP_RECORDS } from './record-count.ts';
import type { OtlpSignal } from './responses.ts';

// What one OTLP request may hold, counted BEFORE it is decoded and mapped. An empty
// protobuf message is two bytes, so a 5 MB body can hold 2.6 million records, resources or
// attributes; decoding and mapping them all takes seconds on the event loop. The counts
// below stop at the first one past its limit, so refusing such a body costs less than
// reading it (docs/otlp.md#limits).

/** Messages of any type in one request (records, resources, scopes, attributes, values, events, links). */
export const MAX_OTLP_MESSAGES = 500_000;
/** Resource groups, and scope groups, in one request. */
export const MAX_OTLP_GROUPS = MAX_OTLP_RECORDS;

/** A request past one of the limits above: 413, which exporters do not retry. */
export class OtlpTooLargeError extends Error {}

interface Shape {
  groups: Set<Field>;
  /** The fields whose messages are the signal's records (metrics: the data points of each point type). */
  records: Set<Field>;
  recordName: string;
}

const fieldOf = (type: Type, name: string) => type.fields[name];

function shape(request: Type, groupField: string, scopeField: string, recordField: string, recordName: string): Shape {
  const group = fieldOf(request, groupField);
  const scope = fieldOf(group.resolvedType as Type, scopeField);
  return { groups: new Set([group, scope]), records: new Set([fieldOf(scope.resolvedType as Type, recordField)]), recordName };
}

/** Metrics count their data points: a metric holds them under one of its point types. */
function metricsShape(): Shape {
  const s = shape(OTLP_TYPES.metricsRequest, 'resourceMetrics', 'scopeMetrics', 'metrics', 'data points');
  const metric = [...s.records][0].resolvedType as Type;
  const points = POINT_TYPES.map((p) => fieldOf(fieldOf(metric, p).resolvedType as Type, 'dataPoints'));
  return { ...s, records: new Set(points) };
}

const POINT_TYPES = ['gauge', 'sum', 'histogram', 'exponentialHistogram', 'summary'];

const SHAPES: Record<OtlpSignal, Shape & { type: Type; json: [string, string, string]; jsonRecords?: (record: unknown) => number }> = {
  logs: {
    type: OTLP_TYPES.logsRequest,
    json: ['resourceLogs', 'scopeLogs', 'logRecords'],
    ...shape(OTLP_TYPES.logsRequest, 'resourceLogs', 'scopeLogs', 'logRecords', 'log records'),
  },
  traces: {
    type: OTLP_TYPES.traceRequest,
    json: ['resourceSpans', 'scopeSpans', 'spans'],
    ...shape(OTLP_TYPES.traceRequest, 'resourceSpans', 'scopeSpans', 'spans', 'spans'),
  },
  metrics: {
    type: OTLP_TYPES.metricsRequest,
    json: ['resourceMetrics', 'scopeMetrics', 'metrics'],
    jsonRecords: (metric) => POINT_TYPES.reduce((n, p) => n + arrayAt(objectAt(metric, p), 'dataPoints').length, 0),
    ...metricsShape(),
  },
};

class Tally {
  messages = 0;
  groups = 0;
  records = 0;
  constructor(private readonly s: Shape) {}

  /** One more message arrived through field f. */
  add(f: Field | undefined): void {
    if (++this.messages > MAX_OTLP_MESSAGES)
      throw new OtlpTooLargeError(`more than ${MAX_OTLP_MESSAGES} messages (records, attributes, values, events, links) in one request`);
    if (f && this.s.records.has(f)) {
      if (++this.records > MAX_OTLP_RECORDS) throw tooManyRecords(this.s.recordName);
    } else if (f && this.s.groups.has(f) && ++this.groups > 2 * MAX_OTLP_GROUPS) throw tooManyGroups();
  }
}

const tooManyGroups = () => new OtlpTooLargeError(`more than ${2 * MAX_OTLP_GROUPS} resource and scope groups in one request`);

const tooManyRecords = (what: string) =>
  new OtlpTooLargeError(
    `more than ${MAX_OTLP_RECORDS} ${what} in one request: lower the exporter's batch size (OTEL_BSP_/OTEL_BLRP_MAX_EXPORT_BATCH_SIZE, the Collector's send_batch_max_size)`,
  );

/**
 * Walks the wire format with protobufjs's Reader, entering only the fields the .proto files
 * declare as messages; everything else is skipped by its length. A body that is not valid
 * protobuf is left to the decoder, which names what is wrong.
 */
function scanProtobuf(type: Type, body: Uint8Array, tally: Tally): void {
  const reader = protobuf.Reader.create(body);
  // An explicit stack (types and where each message ends): depth is bounded like the
  // decoder's, without recursion, and nothing is allocated per message.
  const types: Type[] = [type];
  const ends: number[] = [body.length];
  try {
    while (types.length > 0) {
      const top = types.length - 1;
      if (reader.pos >= ends[top]) {
        reader.pos = ends[top];
        types.pop();
        ends.pop();
        continue;
      }
      const tag = reader.uint32();
      const wireType = tag & 7;
      const field = types[top].fieldsById[tag >>> 3];
      const sub = field?.resolvedType;
      if (wireType === 2 && sub instanceof protobuf.Type) {
        const end = reader.uint32() + reader.pos;
        if (end > ends[top]) return; // truncated: the decoder says so
        tally.add(field);
        if (types.length > protobuf.Reader.recursionLimit) throw new OtlpDecodeError('messages nested too deeply');
        types.push(sub);
        ends.push(end);
      } else {
        reader.skipType(wireType);
      }
    }
  } catch (err) {
    if (err instanceof OtlpTooLargeError || err instanceof OtlpDecodeError) throw err;
    // Not protobuf (a bad wire type, a length past the end): decoding reports it.
  }
}

/** The same counts over an OTLP/JSON body (already parsed): every object is one message. */
function scanJson(body: unknown, s: (typeof SHAPES)[OtlpSignal], tally: Tally): void {
  const [groupKey, scopeKey, recordKey] = s.json;
  // Groups and records first, by array lengths alone: the common oversized cases cost nothing.
  const groups = arrayAt(body, groupKey);
  let scopes = 0;
  let records = 0;
  for (const g of groups) {
    const inGroup = arrayAt(g, scopeKey);
    if ((scopes += inGroup.length) + groups.length > 2 * MAX_OTLP_GROUPS) throw tooManyGroups();
    for (const sc of inGroup) {
      const list = arrayAt(sc, recordKey);
      records += s.jsonRecords ? list.reduce((n: number, r) => n + s.jsonRecords!(r), 0) : list.length;
      if (records > MAX_OTLP_RECORDS) throw tooManyRecords(s.recordName);
    }
  }
  const stack: Array<{ v: unknown; depth: number }> = [{ v: body, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    if (depth > 2 * protobuf.Reader.recursionLimit) throw new OtlpDecodeError('values nested too deeply');
    if (Array.isArray(v)) {
      for (const item of v) if (item !== null && typeof item === 'object') stack.push({ v: item, depth: depth + 1 });
    } else if (v !== null && typeof v === 'object') {
      tally.add(undefined);
      for (const key in v) {
        const item = (v as Record<string, unknown>)[key];
        if (item !== null && typeof item === 'object') stack.push({ v: item, depth: depth + 1 });
      }
    }
  }
}

const objectAt = (v: unknown, key: string): unknown => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined);

const arrayAt = (v: unknown, key: string): unknown[] => {
  const a = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  return Array.isArray(a) ? a : [];
};

/** Throws OtlpTooLargeError (413) for a request past the limits, before it is decoded. */
export function checkOtlpBudget(signal: OtlpSignal, body: unknown, encoding: OtlpEncoding): void {
  const s = SHAPES[signal];
  const tally = new Tally(s);
  if (encoding === 'protobuf') {
    if (body instanceof Uint8Array) scanProtobuf(s.type, body, tally);
  } else scanJson(body, s, tally);
}
