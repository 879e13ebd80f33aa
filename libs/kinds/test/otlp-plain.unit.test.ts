import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLogsRequest, decodeTraceRequest, OTLP_TYPES, PROTOBUFJS, type MessageMaker, type OtlpEncoding } from '@devtrail/otlp';
import { KINDS } from '../src/index.ts';
import { mapLogs, mapTraces } from './otlp-maps.ts';
import { runs } from '../../../test/support/property.ts';

// OTLP requests are decoded into plain objects (libs/otlp/src/plain-messages.ts), following
// what protobufjs generates for the same types. For any request, protobuf or OTLP/JSON, well
// formed or not, the plain form must hold what protobufjs's messages hold, and the kinds must
// map both to the same records, events and refusals; where protobufjs refuses the body, so must
// the plain form, with the same words (they become the 400's text).

const NOW = '2026-11-21T10:00:00.000Z';
const NANOS = [
  '0',
  '1',
  '1732183200123456789',
  '1732183200123456789',
  '18446744073709551615',
  '9223372036854775807',
  '9223372036854775808',
  '253402300800000000000',
  '-5',
  '1e3',
  '007',
];
const int64 = fc.oneof(fc.constantFrom(...NANOS), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String), fc.integer(), fc.double());
const nanos = fc.oneof(fc.constantFrom(...NANOS), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String), fc.nat(), fc.double({ min: 0 }));
const bytes = (n: number) => fc.oneof(fc.uint8Array({ minLength: n, maxLength: n }), fc.constant(new Uint8Array(n)), fc.uint8Array({ maxLength: 20 }));
const key = fc.oneof(
  fc.constantFrom(
    'service.name',
    'deployment.environment',
    'deployment.environment.name',
    'service.version',
    'gen_ai.request.model',
    'gen_ai.system',
    'gen_ai.usage.input_tokens',
    'exception.type',
    'exception.message',
    'exception.stacktrace',
    'user.id',
    '__proto__',
  ),
  fc.string({ maxLength: 8 }),
);

// AnyValue: one member, sometimes two (protobuf keeps the last; OTLP/JSON both).
const { value: anyValue } = fc.letrec<{ value: Record<string, unknown>; kv: Record<string, unknown> }>((tie) => ({
  value: fc
    .tuple(
      fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.record({ stringValue: fc.string({ maxLength: 10 }) }),
        fc.record({ boolValue: fc.boolean() }),
        fc.record({ intValue: int64 }),
        fc.record({ doubleValue: fc.double() }),
        fc.record({ bytesValue: bytes(3) }),
        fc.record({ arrayValue: fc.record({ values: fc.array(tie('value'), { maxLength: 3 }) }, { requiredKeys: [] }) }),
        fc.record({ kvlistValue: fc.record({ values: fc.array(tie('kv'), { maxLength: 3 }) }, { requiredKeys: [] }) }),
        fc.constant({}),
      ),
      fc.option(fc.record({ stringValue: fc.string({ maxLength: 4 }) }), { freq: 8 }),
    )
    .map(([v, extra]) => ({ ...v, ...(extra ?? {}) })),
  kv: fc.record({ key, value: tie('value') }, { requiredKeys: [] }),
}));
const attributes = fc.array(fc.record({ key, value: anyValue }, { requiredKeys: ['key'] }), { maxLength: 5 });
const resource = fc.record({ attributes, droppedAttributesCount: fc.nat(3) }, { requiredKeys: [] });
const scope = fc.record({ name: fc.string({ maxLength: 6 }), version: fc.string({ maxLength: 4 }), attributes }, { requiredKeys: [] });

const logRecord = fc.record(
  {
    timeUnixNano: nanos,
    observedTimeUnixNano: nanos,
    severityNumber: fc.oneof(fc.integer({ min: -1, max: 30 }), fc.constantFrom('SEVERITY_NUMBER_WARN', 'SEVERITY_NUMBER_UNSPECIFIED', 'nope')),
    severityText: fc.constantFrom('', 'INFO', 'Warn', 'error', 'whatever'),
    body: anyValue,
    attributes,
    droppedAttributesCount: fc.nat(5),
    flags: fc.nat(),
    traceId: bytes(16),
    spanId: bytes(8),
    eventName: fc.string({ maxLength: 5 }),
  },
  { requiredKeys: [] },
);
const logsRequest = fc.record({
  resourceLogs: fc.array(
    fc.record(
      { resource, scopeLogs: fc.array(fc.record({ scope, logRecords: fc.array(logRecord, { maxLength: 4 }) }, { requiredKeys: [] }), { maxLength: 2 }) },
      { requiredKeys: [] },
    ),
    {
      maxLength: 2,
    },
  ),
});

const event = fc.record({ timeUnixNano: nanos, name: fc.constantFrom('exception', 'log', ''), attributes }, { requiredKeys: [] });
const span = fc.record(
  {
    traceId: bytes(16),
    spanId: bytes(8),
    parentSpanId: bytes(8),
    traceState: fc.string({ maxLength: 4 }),
    name: fc.string({ maxLength: 8 }),
    kind: fc.oneof(fc.integer({ min: 0, max: 7 }), fc.constantFrom('SPAN_KIND_SERVER', 'SPAN_KIND_CLIENT')),
    startTimeUnixNano: nanos,
    endTimeUnixNano: nanos,
    attributes,
    events: fc.array(event, { maxLength: 2 }),
    links: fc.array(fc.record({ traceId: bytes(16), spanId: bytes(8) }, { requiredKeys: [] }), { maxLength: 2 }),
    status: fc.record({ code: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant('STATUS_CODE_ERROR')), message: fc.string({ maxLength: 4 }) }, { requiredKeys: [] }),
    flags: fc.nat(),
  },
  { requiredKeys: [] },
);
const traceRequest = fc.record({
  resourceSpans: fc.array(
    fc.record(
      { resource, scopeSpans: fc.array(fc.record({ scope, spans: fc.array(span, { maxLength: 3 }) }, { requiredKeys: [] }), { maxLength: 2 }) },
      { requiredKeys: [] },
    ),
    {
      maxLength: 2,
    },
  ),
});

/** A message as comparable data: own fields only (protobufjs keeps defaults on its prototypes), 64-bit integers and bytes as text. */
function comparable(v: unknown): unknown {
  if (v instanceof Uint8Array) return `bytes:${Buffer.from(v).toString('hex')}`;
  if (Array.isArray(v)) return v.map(comparable);
  if (v && typeof v === 'object') {
    if ('low' in v && 'high' in v && 'unsigned' in v) return `int:${String(v)}`;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (Array.isArray(x) && x.length === 0) continue; // protobufjs's constructors give every repeated field an array
      out[k] = /UnixNano$|^intValue$/.test(k) && (typeof x === 'string' || typeof x === 'number') ? `int:${String(x)}` : comparable(x);
    }
    return out;
  }
  return v;
}

/** What the kinds make of a request: their records, refusals, and the events of each record (as the receiver makes them). */
function mapped(signal: 'logs' | 'traces', request: unknown) {
  const events = (kind: 'log' | 'span' | 'llm' | 'error', body: unknown) => {
    const k = KINDS[kind] as unknown as {
      fastEvents?: (b: unknown, now: string) => unknown[] | undefined;
      request: { safeParse(b: unknown): { success: true; data: unknown } | { success: false; error: { issues: Array<{ message: string }> } } };
      toEvents(b: unknown, now: string): unknown[];
    };
    const fast = k.fastEvents?.(body, NOW);
    if (fast) return fast;
    const parsed = k.request.safeParse(body);
    return parsed.success ? k.toEvents(parsed.data, NOW) : parsed.error.issues.map((i) => i.message);
  };
  if (signal === 'logs') {
    const m = mapLogs(request as never);
    return { ...m, events: m.batches.map((b) => events('log', b)) };
  }
  const m = mapTraces(request as never);
  return { ...m, events: [...m.spans.map((s) => events('span', s)), ...m.llm.map((l) => events('llm', l.body)), ...m.errors.map((e) => events('error', e.body))] };
}

function outcome(signal: 'logs' | 'traces', body: unknown, encoding: OtlpEncoding, make?: MessageMaker) {
  const decode = signal === 'logs' ? decodeLogsRequest : decodeTraceRequest;
  let request: unknown;
  try {
    request = decode(body, encoding, make);
  } catch (err) {
    return { refused: (err as Error).message };
  }
  return { message: comparable(request), mapped: JSON.parse(JSON.stringify(mapped(signal, request))) };
}

const TYPES = { logs: OTLP_TYPES.logsRequest, traces: OTLP_TYPES.traceRequest };

/** The request as protobuf bytes, as protobufjs encodes it, then changed a few bytes where `mutations` say. */
function encoded(signal: 'logs' | 'traces', request: Record<string, unknown>, mutations: Array<[number, number]>, cut: number | null): Uint8Array {
  const type = TYPES[signal];
  const bytes = Buffer.from(type.encode(type.fromObject(request)).finish());
  for (const [at, value] of mutations) if (bytes.length) bytes[at % bytes.length] = value;
  return cut === null || bytes.length === 0 ? bytes : bytes.subarray(0, cut % bytes.length);
}

/** The request as OTLP/JSON: ids as hex, bytes as base64, here and there a value of the wrong type. */
function asJson(request: unknown, wrong: Array<[number, unknown]>): unknown {
  let n = 0;
  const walk = (v: unknown, k: string): unknown => {
    n++;
    const swap = wrong.find(([at]) => at === n);
    if (swap) return swap[1];
    if (v instanceof Uint8Array) return /Id$/.test(k) ? Buffer.from(v).toString('hex') : Buffer.from(v).toString('base64');
    if (Array.isArray(v)) return v.map((x) => walk(x, k));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([kk, x]) => [kk, walk(x, kk)]));
    return v;
  };
  return walk(request, '');
}

const wrongValue = fc.oneof(
  fc.constant(null),
  fc.constant('x'),
  fc.constant(7),
  fc.constant(-1.5),
  fc.constant([]),
  fc.constant({}),
  fc.constant(true),
  fc.constant('00ff'),
  fc.constant(2 ** 60),
);

describe.each(['logs', 'traces'] as const)('plain OTLP %s messages', (signal) => {
  const request = signal === 'logs' ? logsRequest : traceRequest;

  it('hold what protobufjs decodes from protobuf, mapped the same, and refuse what it refuses', () => {
    fc.assert(
      fc.property(request, fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 3 }), fc.option(fc.nat(), { freq: 4 }), (r, mutations, cut) => {
        const bytes = encoded(signal, r, mutations, cut);
        expect(outcome(signal, bytes, 'protobuf')).toEqual(outcome(signal, bytes, 'protobuf', PROTOBUFJS));
      }),
      { numRuns: runs(300) },
    );
  });

  it('hold what protobufjs converts from OTLP/JSON, mapped the same, and refuse what it refuses', () => {
    fc.assert(
      fc.property(request, fc.array(fc.tuple(fc.nat(60), wrongValue), { maxLength: 2 }), (r, wrong) => {
        const json = JSON.stringify(asJson(r, wrong));
        expect(outcome(signal, JSON.parse(json), 'json')).toEqual(outcome(signal, JSON.parse(json), 'json', PROTOBUFJS));
      }),
      { numRuns: runs(300) },
    );
  });
});
