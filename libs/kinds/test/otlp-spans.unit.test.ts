import { describe, expect, it } from 'vitest';
import { errorReportSchema, fingerprint, llmUsageSchema, spanSchema } from '@devtrail/kinds';
import { decodeTraceRequest, OTLP_TYPES, PROTOBUFJS } from '@devtrail/otlp';
import { mapTraces } from './otlp-maps.ts';
import { int, PARENT_ID, resource, span, SPAN_ID, str, T0_ISO, T0_NS, TRACE_ID, traceRequest } from '../../otlp/test/requests.ts';

// Spans -> native span bodies, GenAI spans -> LLM usage, exception events -> error
// reports: every row of docs/otlp.md's tables, from both encodings.
const viaJson = (req: unknown) => mapTraces(decodeTraceRequest(structuredClone(req), 'json'));
const viaProtobuf = (req: unknown) => {
  const msg = OTLP_TYPES.traceRequest.fromObject(decodeTraceRequest(structuredClone(req), 'json', PROTOBUFJS) as Record<string, unknown>);
  return mapTraces(decodeTraceRequest(OTLP_TYPES.traceRequest.encode(msg).finish(), 'protobuf'));
};
const RES = resource(
  str('service.name', 'checkout'),
  str('deployment.environment.name', 'staging'),
  str('service.version', '2.4.1'),
  str('telemetry.sdk.language', 'nodejs'),
);
const SHARED = { service: 'checkout', environment: 'staging', release: '2.4.1' };
const stack =
  "TypeError: Cannot read properties of undefined (reading 'id')\n    at loadOrder (/srv/app/src/orders.js:40:11)\n    at handler (/srv/app/src/routes.js:12:3)";

describe.each([
  ['OTLP/JSON', viaJson],
  ['OTLP/protobuf', viaProtobuf],
])('spans from %s', (_name, map) => {
  it('maps every span field, and the result passes the native span schema', () => {
    const out = map(
      traceRequest(
        [
          span({
            parentSpanId: PARENT_ID,
            attributes: [str('http.request.method', 'GET'), int('http.response.status_code', 500)],
            status: { code: 2, message: 'upstream failed' },
            events: [{ name: 'cache.miss', timeUnixNano: T0_NS, attributes: [str('key', 'o:42')] }],
            links: [{ traceId: TRACE_ID, spanId: PARENT_ID }],
          }),
        ],
        RES,
      ),
    );
    expect(out.rejected).toEqual([]);
    expect(out.spans).toEqual([
      {
        ...SHARED,
        trace_id: TRACE_ID,
        span_id: SPAN_ID,
        parent_span_id: PARENT_ID,
        operation: 'GET /orders/:id',
        start_time: T0_ISO,
        duration_ms: expect.closeTo(41.6, 6),
        status: 'error',
        metadata: {
          'http.request.method': 'GET',
          'http.response.status_code': 500,
          'otel.span_kind': 'server',
          'otel.status_message': 'upstream failed',
          'otel.scope.name': '@acme/tracer',
          'otel.scope.version': '0.9.0',
          'otel.events': [{ name: 'cache.miss', timestamp: T0_ISO, attributes: { key: 'o:42' } }],
          'otel.links': [{ trace_id: TRACE_ID, span_id: PARENT_ID }],
          'otel.resource': { 'telemetry.sdk.language': 'nodejs' },
        },
      },
    ]);
    const parsed = spanSchema.parse(out.spans[0]);
    expect(parsed.duration_ms).toBe(42);
    expect(out.llm).toEqual([]);
    expect(out.errors).toEqual([]);
  });

  it('a root span has an empty parent; status OK and UNSET are ok; each kind is named', () => {
    const kinds = [0, 1, 2, 3, 4, 5].map((kind, i) => span({ kind, spanId: `00000000000000${i + 1}0`, status: { code: i % 2 } }));
    const out = map(traceRequest(kinds));
    expect(out.spans.map((s) => s.metadata!['otel.span_kind'])).toEqual(['unspecified', 'internal', 'server', 'client', 'producer', 'consumer']);
    expect(out.spans.every((s) => s.parent_span_id === '' && s.status === 'ok')).toBe(true);
  });

  it('a span ending before it started maps to a negative duration the native schema refuses', () => {
    const out = map(traceRequest([span({ endTimeUnixNano: '1795255200000000000' })]));
    expect(out.spans[0].duration_ms).toBeLessThan(0);
    expect(spanSchema.safeParse(out.spans[0]).success).toBe(false);
  });

  it('a span without a start time is rejected by the mapper', () => {
    const out = map(traceRequest([span({ startTimeUnixNano: '0' })]));
    expect(out.spans).toEqual([]);
    expect(out.rejected).toEqual([{ reason: expect.stringContaining('no start time') }]);
  });

  it('a GenAI span (current conventions) becomes an LLM usage record linked by trace and span id', () => {
    const attrs = [
      str('gen_ai.operation.name', 'chat'),
      str('gen_ai.provider.name', 'openai'),
      str('gen_ai.request.model', 'gpt-4o'),
      str('gen_ai.response.model', 'gpt-4o-2024-08-06'),
      int('gen_ai.usage.input_tokens', 1200),
      int('gen_ai.usage.output_tokens', 300),
      str('gen_ai.input.messages', '[{"role":"user"}]'),
    ];
    const out = map(traceRequest([span({ name: 'chat gpt-4o', kind: 3, attributes: attrs }, 950.4)], RES));
    expect(out.spans).toHaveLength(1);
    expect(out.llm).toEqual([
      {
        timestamp: '2026-11-21T10:00:01.073Z',
        body: {
          ...SHARED,
          model: 'gpt-4o-2024-08-06',
          provider: 'openai',
          operation: 'chat',
          input_tokens: 1200,
          output_tokens: 300,
          latency_ms: expect.closeTo(950.4, 6),
          metadata: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name': 'openai',
            'gen_ai.request.model': 'gpt-4o',
            'gen_ai.response.model': 'gpt-4o-2024-08-06',
            'gen_ai.usage.input_tokens': 1200,
            'gen_ai.usage.output_tokens': 300,
            trace_id: TRACE_ID,
            span_id: SPAN_ID,
            'otel.span_name': 'chat gpt-4o',
          },
          input: [{ role: 'user', parts: [] }],
        },
      },
    ]);
    const parsed = llmUsageSchema.parse(out.llm[0].body);
    expect(parsed).toMatchObject({ latency_ms: 950, cost_usd: 0 });
  });

  it('reads the older GenAI names (gen_ai.system, prompt/completion tokens) and the request model alone', () => {
    const attrs = [
      str('gen_ai.system', 'anthropic'),
      str('gen_ai.request.model', 'claude-3-5-sonnet'),
      int('gen_ai.usage.prompt_tokens', 10),
      int('gen_ai.usage.completion_tokens', 5),
    ];
    const out = map(traceRequest([span({ name: 'anthropic.messages', attributes: attrs })]));
    expect(out.llm[0].body).toMatchObject({ model: 'claude-3-5-sonnet', provider: 'anthropic', operation: 'anthropic.messages', input_tokens: 10, output_tokens: 5 });
  });

  it('a span with gen_ai attributes but no model is only a span', () => {
    const out = map(traceRequest([span({ attributes: [str('gen_ai.operation.name', 'chat'), str('gen_ai.provider.name', 'openai')] })]));
    expect(out.llm).toEqual([]);
  });

  it('an "exception" event becomes an error report with the native fingerprint inputs', () => {
    const ev = {
      name: 'exception',
      timeUnixNano: '1795255200140000000',
      attributes: [
        str('exception.type', 'TypeError'),
        str('exception.message', "Cannot read properties of undefined (reading 'id')"),
        str('exception.stacktrace', stack),
        { key: 'exception.escaped', value: { boolValue: true } },
      ],
    };
    const out = map(traceRequest([span({ status: { code: 2 }, events: [ev], attributes: [str('enduser.id', 'user-7')] })], RES));
    expect(out.errors).toEqual([
      {
        timestamp: '2026-11-21T10:00:00.140Z',
        body: {
          ...SHARED,
          error_message: "Cannot read properties of undefined (reading 'id')",
          stack_trace: stack,
          severity: 'high',
          trace_id: TRACE_ID,
          user_id: 'user-7',
          context: {
            'exception.type': 'TypeError',
            'exception.escaped': true,
            'otel.span_name': 'GET /orders/:id',
            'otel.span_id': SPAN_ID,
            'otel.resource': { 'telemetry.sdk.language': 'nodejs' },
          },
        },
      },
    ]);
    const report = errorReportSchema.parse(out.errors[0].body);
    // Same inputs, same group as the native endpoint's report of this error.
    expect(fingerprint(report)).toBe(fingerprint({ error_message: "Cannot read properties of undefined (reading 'id')", stack_trace: stack }));
    // The span keeps which exception happened, not the stack twice.
    expect(out.spans[0].metadata!['otel.events']).toEqual([
      {
        name: 'exception',
        timestamp: '2026-11-21T10:00:00.140Z',
        attributes: { 'exception.type': 'TypeError', 'exception.message': "Cannot read properties of undefined (reading 'id')", 'exception.escaped': true },
      },
    ]);
  });

  it('an exception without a stack keeps "Type: message" as its stack; on a span that did not fail it is medium', () => {
    const ev = { name: 'exception', attributes: [str('exception.type', 'ValueError'), str('exception.message', 'bad input'), str('user.id', 'x')] };
    const out = map(traceRequest([span({ events: [ev], attributes: [str('user.id', 'u-2')] })]));
    expect(out.errors[0].body).toMatchObject({ stack_trace: 'ValueError: bad input', error_message: 'bad input', severity: 'medium', user_id: 'u-2' });
    // No event time: the span's end.
    expect(out.errors[0].timestamp).toBe('2026-11-21T10:00:00.165Z');
  });

  it('keeps resources apart and maps a request with several', () => {
    const req = traceRequest([span()], resource(str('service.name', 'a')));
    req.resourceSpans.push(traceRequest([span({ spanId: '1111111111111111' })], resource(str('service.name', 'b'))).resourceSpans[0]);
    expect(map(req).spans.map((s) => s.service)).toEqual(['a', 'b']);
  });
});

describe.each([
  ['OTLP/JSON', viaJson],
  ['OTLP/protobuf', viaProtobuf],
])('exception events from %s and grouping', (_name, map) => {
  const exception = (attributes: unknown[]) => ({ name: 'exception', timeUnixNano: '1795255200140000000', attributes });
  const stackless = [str('exception.type', '*fmt.wrapError'), str('exception.message', 'get order 8123: sql: no rows in result set')];

  it('reads exception.type as the type, and devtrail.fingerprint (a string or strings, on the event or its span) as the chosen group', () => {
    const [plain] = map(traceRequest([span({ events: [exception(stackless)] })])).errors;
    expect(errorReportSchema.parse(plain.body).context?.['exception.type']).toBe('*fmt.wrapError');
    const chosen = map(
      traceRequest([
        span({
          events: [
            exception([...stackless, { key: 'devtrail.fingerprint', value: { arrayValue: { values: [{ stringValue: '{{ default }}' }, { stringValue: 'eu' }] } } }]),
          ],
        }),
        span({ events: [exception(stackless)], attributes: [str('devtrail.fingerprint', 'orders-db')] }),
      ]),
    ).errors.map((e) => errorReportSchema.parse(e.body));
    expect(chosen.map((r) => r.fingerprint)).toEqual([['{{ default }}', 'eu'], ['orders-db']]);
    expect(chosen[0].context).not.toHaveProperty('devtrail.fingerprint');
    expect(fingerprint(chosen[0])).not.toBe(fingerprint(errorReportSchema.parse(plain.body)));
    expect(fingerprint(chosen[1])).toBe(fingerprint({ error_message: 'other', stack_trace: 'x', fingerprint: ['orders-db'] }));
  });
});

describe('decoding refuses what is not OTLP', () => {
  it('bad protobuf bytes', () => {
    expect(() => decodeTraceRequest(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]), 'protobuf')).toThrow(/not a valid ExportTraceServiceRequest \(protobuf\)/);
  });
  it('JSON of the wrong structure', () => {
    expect(() => decodeTraceRequest({ resourceSpans: 'x' }, 'json')).toThrow(/array expected/);
    expect(() => decodeTraceRequest([1], 'json')).toThrow(/expected a JSON object/);
  });
  it('an OTLP/JSON id that is not hex', () => {
    expect(() => decodeTraceRequest(traceRequest([span({ traceId: 'W46v95gDgQPSabYzgT/GDA==' })]), 'json')).toThrow(/traceId must be 32 hex characters/);
  });
  it('ignores unknown JSON fields, as OTLP/JSON receivers must', () => {
    const out = mapTraces(decodeTraceRequest({ ...traceRequest([span({ futureField: 1 })]), extra: true }, 'json'));
    expect(out.spans).toHaveLength(1);
  });
});
