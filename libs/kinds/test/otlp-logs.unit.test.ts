import { describe, expect, it } from 'vitest';
import { logBatchSchema, logLevel } from '@devtrail/kinds';
import { decodeLogsRequest, OTLP_TYPES, PROTOBUFJS } from '@devtrail/otlp';
import { mapLogs } from './otlp-maps.ts';
import { int, logsRequest, resource, SPAN_ID, str, T0_ISO, T0_NS, TRACE_ID } from '../../otlp/test/requests.ts';

// Log records -> native log batches, every row of docs/otlp.md's "Log records" table,
// from both encodings.
const viaJson = (req: unknown) => mapLogs(decodeLogsRequest(structuredClone(req), 'json'));
const viaProtobuf = (req: unknown) => {
  const msg = OTLP_TYPES.logsRequest.fromObject(decodeLogsRequest(structuredClone(req), 'json', PROTOBUFJS) as Record<string, unknown>);
  return mapLogs(decodeLogsRequest(OTLP_TYPES.logsRequest.encode(msg).finish(), 'protobuf'));
};

describe.each([
  ['OTLP/JSON', viaJson],
  ['OTLP/protobuf', viaProtobuf],
])('log records from %s', (_name, map) => {
  it('maps every field of a full record, and the result passes the native log batch schema', () => {
    const res = resource(str('service.name', 'checkout'), str('deployment.environment.name', 'staging'), str('service.version', '2.4.1'), str('host.name', 'web-1'));
    const out = map(
      logsRequest(
        [
          {
            timeUnixNano: T0_NS,
            observedTimeUnixNano: '1795255209000000000',
            severityNumber: 13,
            severityText: 'WARN',
            body: { stringValue: 'order 42 is slow' },
            attributes: [str('order.id', '42'), int('attempt', 3), { key: 'ok', value: { boolValue: false } }, { key: 'ratio', value: { doubleValue: 0.5 } }],
            traceId: TRACE_ID,
            spanId: SPAN_ID,
            eventName: 'order.slow',
          },
        ],
        res,
      ),
    );
    expect(out.rejected).toEqual([]);
    expect(out.batches).toEqual([
      {
        service: 'checkout',
        environment: 'staging',
        release: '2.4.1',
        logs: [
          {
            level: 'warn',
            message: 'order 42 is slow',
            timestamp: T0_ISO,
            trace_id: TRACE_ID,
            span_id: SPAN_ID,
            context: 'orders-logger',
            metadata: {
              'order.id': '42',
              attempt: 3,
              ok: false,
              ratio: 0.5,
              'otel.severity_text': 'WARN',
              'otel.severity_number': 13,
              'otel.event_name': 'order.slow',
              'otel.scope.version': '1.2.0',
              'otel.resource': { 'host.name': 'web-1' },
            },
          },
        ],
      },
    ]);
    expect(logBatchSchema.safeParse(out.batches[0]).success).toBe(true);
  });

  it('falls back to the observed time, then leaves the timestamp to the receiver', () => {
    const out = map(logsRequest([{ observedTimeUnixNano: T0_NS, body: { stringValue: 'a' } }, { body: { stringValue: 'b' } }]));
    expect(out.batches[0].logs[0].timestamp).toBe(T0_ISO);
    expect(out.batches[0].logs[1]).not.toHaveProperty('timestamp');
  });

  it('reads the older deployment.environment and leaves absent shared fields to the native defaults', () => {
    expect(map(logsRequest([{ body: { stringValue: 'x' } }], resource(str('deployment.environment', 'qa')))).batches[0]).toEqual({
      environment: 'qa',
      logs: [expect.any(Object)],
    });
    const parsed = logBatchSchema.parse(map(logsRequest([{ body: { stringValue: 'x' } }], resource())).batches[0]);
    expect(parsed).toMatchObject({ service: 'unknown', environment: 'production' });
    expect(parsed.release).toBeUndefined();
  });

  it('writes structured bodies as JSON and an empty body as an empty message', () => {
    const kv = {
      kvlistValue: { values: [str('user', 'ann'), { key: 'tags', value: { arrayValue: { values: [{ stringValue: 'a' }, { intValue: '9007199254740993' }] } } }] },
    };
    const out = map(logsRequest([{ body: kv }, {}]));
    expect(JSON.parse(out.batches[0].logs[0].message)).toEqual({ user: 'ann', tags: ['a', '9007199254740993'] });
    expect(out.batches[0].logs[1].message).toBe('');
    expect(out.batches[0].logs[1].level).toBe('info');
  });

  it('drops all-zero trace and span ids', () => {
    const out = map(logsRequest([{ body: { stringValue: 'x' }, traceId: '0'.repeat(32), spanId: '0'.repeat(16) }]));
    expect(out.batches[0].logs[0]).not.toHaveProperty('trace_id');
    expect(out.batches[0].logs[0]).not.toHaveProperty('span_id');
  });

  it('splits a resource with more records than a native batch holds', () => {
    const records = Array.from({ length: 2500 }, (_, i) => ({ body: { stringValue: `m${i}` } }));
    const out = map(logsRequest(records));
    expect(out.batches.map((b) => b.logs.length)).toEqual([1000, 1000, 500]);
    expect(out.batches[2].logs[499].message).toBe('m2499');
  });
});

describe('severity -> level', () => {
  it.each([
    [1, 'debug'],
    [4, 'debug'],
    [5, 'debug'],
    [8, 'debug'],
    [9, 'info'],
    [12, 'info'],
    [13, 'warn'],
    [16, 'warn'],
    [17, 'error'],
    [20, 'error'],
    [21, 'error'],
    [24, 'error'],
  ])('number %i -> %s', (n, level) => expect(logLevel(n, undefined)).toBe(level));

  it.each([
    ['TRACE', 'debug'],
    ['debug', 'debug'],
    ['Info', 'info'],
    ['NOTICE', 'info'],
    ['WARNING', 'warn'],
    ['warn', 'warn'],
    ['ERROR', 'error'],
    ['FATAL', 'error'],
    ['critical', 'error'],
    ['INFO2', 'info'],
  ])('text %s -> %s when the number is unset', (text, level) => expect(logLevel(0, text)).toBe(level));

  it('the number wins over the text; neither means info', () => {
    expect(logLevel(17, 'info')).toBe('error');
    expect(logLevel(0, 'verbose')).toBe('info');
    expect(logLevel(undefined, undefined)).toBe('info');
  });
});

describe('attribute keys', () => {
  it('keeps a "__proto__" attribute as a plain key without touching the prototype', () => {
    const out = mapLogs(decodeLogsRequest(logsRequest([{ body: { stringValue: 'x' }, attributes: [str('__proto__', 'p'), str('a', 'b')] }]), 'json'));
    const meta = out.batches[0].logs[0].metadata!;
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
    expect(Object.hasOwn(meta, '__proto__')).toBe(true);
    expect(meta.a).toBe('b');
  });
});
