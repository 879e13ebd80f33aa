import { describe, expect, it } from 'vitest';
import { DecodeError } from '@devtrail/contract';
import { decodeEnvelope, encodeEnvelope, newEnvelope } from '../../../test/support/envelopes.ts';
import { fastLogsToEvents, KINDS, logBatchSchema, logsToEvents } from '@devtrail/kinds';

const logEventSchema = KINDS.log.event;

// The hand-written log fast paths must never accept what zod refuses, and must produce
// byte-for-byte what the zod path produces (the envelope JSON is built from it).

const NOW = '2026-11-21T10:00:00.000Z';

/** A small deterministic generator, so a failure names a reproducible case. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const TIMESTAMPS = [
  '2026-11-21T10:00:00Z',
  '2026-11-21T10:00:00.123Z',
  '2026-11-21T10:00Z',
  '2026-11-21T12:00:00+02:00',
  '2026-11-21T10:00:00.123456-0130',
  '2024-02-29T23:59:59.999Z',
];

function validBody(r: () => number): Record<string, unknown> {
  const maybe = <T>(v: T) => (r() < 0.5 ? v : undefined);
  const logs = Array.from({ length: 1 + Math.floor(r() * 5) }, (_, i) => {
    const l: Record<string, unknown> = { level: ['debug', 'info', 'warn', 'error'][Math.floor(r() * 4)], message: `line ${i} ünïcødé ${r()}` };
    const opt: Record<string, unknown> = {
      timestamp: TIMESTAMPS[Math.floor(r() * TIMESTAMPS.length)],
      metadata: { route: '/x', n: i, nested: { deep: [1, { a: null }] } },
      trace_id: 'abc',
      span_id: '',
      request_id: 'req-1',
      context: 'http',
      release: 'r'.repeat(Math.floor(r() * 129)),
      unknown_field: { dropped: true },
    };
    for (const [k, v] of Object.entries(opt)) if (r() < 0.5) l[k] = v;
    return l;
  });
  const body: Record<string, unknown> = { logs, service: maybe('api'), environment: maybe('staging'), release: maybe('v1.2.3'), extra: maybe(1) };
  for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
  return JSON.parse(JSON.stringify(body));
}

const deep = (n: number): unknown => (n === 0 ? 1 : { a: deep(n - 1) });

/** Mutations of a valid body; some keep it valid, most do not. */
const MUTATIONS: Array<(b: any) => void> = [
  (b) => (b.service = 5),
  (b) => (b.service = null),
  (b) => (b.service = ''),
  (b) => (b.environment = ['x']),
  (b) => (b.release = 'x'.repeat(129)),
  (b) => (b.release = 'x'.repeat(128)),
  (b) => (b.release = 3),
  (b) => (b.logs = []),
  (b) => (b.logs = Array.from({ length: 1001 }, () => ({ level: 'info', message: 'm' }))),
  (b) => (b.logs = Array.from({ length: 1000 }, () => ({ level: 'info', message: 'm' }))),
  (b) => (b.logs = 'nope'),
  (b) => (b.logs = null),
  (b) => delete b.logs,
  (b) => (b.logs[0] = null),
  (b) => (b.logs[0] = []),
  (b) => (b.logs[0] = 'x'),
  (b) => (b.logs[0].level = 'fatal'),
  (b) => (b.logs[0].level = 'INFO'),
  (b) => (b.logs[0].level = 3),
  (b) => delete b.logs[0].level,
  (b) => delete b.logs[0].message,
  (b) => (b.logs[0].message = 5),
  (b) => (b.logs[0].message = null),
  (b) => (b.logs[0].message = ''),
  (b) => (b.logs[0].timestamp = 'yesterday'),
  (b) => (b.logs[0].timestamp = '2026-02-30T00:00:00Z'),
  (b) => (b.logs[0].timestamp = '2026-11-21 10:00:00'),
  (b) => (b.logs[0].timestamp = '2026-11-21T10:00:00'),
  (b) => (b.logs[0].timestamp = ''),
  (b) => (b.logs[0].timestamp = null),
  (b) => (b.logs[0].timestamp = 1732183200000),
  (b) => (b.logs[0].metadata = []),
  (b) => (b.logs[0].metadata = null),
  (b) => (b.logs[0].metadata = 'x'),
  (b) => (b.logs[0].metadata = {}),
  (b) => (b.logs[0].metadata = deep(31)),
  (b) => (b.logs[0].metadata = deep(32)),
  (b) => (b.logs[0].metadata = deep(40)),
  (b) => (b.logs[0].metadata = JSON.parse('{"__proto__":{"polluted":1},"a":1}')),
  (b) => (b.logs[0].metadata = new Date(0)),
  (b) => (b.logs[0].metadata = new Map([['a', 1]])),
  (b) => (b.logs[0].metadata = Object.create(null)),
  (b) => (b.logs[0].trace_id = 5),
  (b) => (b.logs[0].span_id = null),
  (b) => (b.logs[0].request_id = {}),
  (b) => (b.logs[0].context = false),
  (b) => (b.logs[0].release = 'x'.repeat(129)),
  (b) => (b.logs[0].release = 7),
  (b) => (b.logs[0].release = ''),
];

function zodPath(body: unknown) {
  const parsed = logBatchSchema.safeParse(body);
  return parsed.success ? logsToEvents(parsed.data, NOW) : undefined;
}

describe('fastLogsToEvents', () => {
  it('equals the zod path on well-formed bodies, byte for byte', () => {
    const r = rng(1);
    for (let i = 0; i < 500; i++) {
      const body = validBody(r);
      const expected = zodPath(body);
      expect(expected, JSON.stringify(body)).toBeDefined();
      const fast = fastLogsToEvents(body, NOW);
      expect(JSON.stringify(fast), JSON.stringify(body)).toBe(JSON.stringify(expected));
    }
  });

  it('refuses whatever zod refuses, and otherwise agrees with it or defers to it', () => {
    const r = rng(2);
    let refused = 0;
    for (let i = 0; i < 2000; i++) {
      const body = validBody(r);
      const m = MUTATIONS[i % MUTATIONS.length];
      m(body);
      const expected = zodPath(body);
      const fast = fastLogsToEvents(body, NOW);
      if (expected === undefined) {
        refused++;
        expect(fast, `mutation ${i % MUTATIONS.length}`).toBeUndefined();
      } else if (fast !== undefined) {
        expect(JSON.stringify(fast), `mutation ${i % MUTATIONS.length}`).toBe(JSON.stringify(expected));
      }
    }
    expect(refused).toBeGreaterThan(1000);
  });

  it('defers non-objects to zod', () => {
    for (const body of [null, undefined, 5, 'x', [], [{ level: 'info', message: 'm' }]]) expect(fastLogsToEvents(body, NOW)).toBeUndefined();
  });
});

describe('decodeEnvelope of logs (fast path)', () => {
  const events = () => {
    const r = rng(3);
    return Array.from({ length: 200 }, () => zodPath(validBody(r))!).flat();
  };

  it('equals the schema parse of the same message, unknown keys dropped', () => {
    for (const d of events()) {
      const env = newEnvelope('log', '3f1c9a52-7f0e-4d4e-9a59-4f0f6b1e2c11', NOW, d);
      const raw = { ...JSON.parse(encodeEnvelope(env).value.toString()), future_field: 1 };
      raw.data = { ...raw.data, future_data_field: 'x' };
      const got = decodeEnvelope('log', Buffer.from(JSON.stringify(raw)));
      const { future_field: _f, ...top } = raw;
      expect(JSON.stringify(got)).toBe(JSON.stringify({ ...top, data: logEventSchema.parse(raw.data) }));
    }
  });

  const BAD: Array<[string, (raw: any) => void]> = [
    ['event id not a uuid', (r) => (r.event_id = 'nope')],
    ['schema version above this build', (r) => (r.schema_version = 2)],
    ['schema version not an integer', (r) => (r.schema_version = 1.5)],
    ['schema version a string', (r) => (r.schema_version = '1')],
    ['other kind', (r) => (r.kind = 'span')],
    ['empty project', (r) => (r.project_id = '')],
    ['received_at not a time', (r) => (r.received_at = 'now')],
    ['no data', (r) => delete r.data],
    ['data an array', (r) => (r.data = [])],
    ['data timestamp missing', (r) => delete r.data.timestamp],
    ['data level unknown', (r) => (r.data.level = 'fatal')],
    ['data metadata an array', (r) => (r.data.metadata = [])],
    ['data trace_id a number', (r) => (r.data.trace_id = 1)],
    ['data release missing', (r) => delete r.data.release],
  ];
  for (const [name, mutate] of BAD) {
    it(`refuses a message whose ${name}`, () => {
      const raw = JSON.parse(encodeEnvelope(newEnvelope('log', 'p1', NOW, events()[0])).value.toString());
      mutate(raw);
      expect(() => decodeEnvelope('log', Buffer.from(JSON.stringify(raw)))).toThrow(DecodeError);
    });
  }

  it('drops an own "__proto__" key of metadata as zod does', () => {
    const raw = JSON.parse(encodeEnvelope(newEnvelope('log', 'p1', NOW, events()[0])).value.toString());
    raw.data.metadata = {};
    const text = JSON.stringify(raw).replace('"metadata":{}', '"metadata":{"__proto__":{"x":1},"a":1}');
    const got = decodeEnvelope('log', Buffer.from(text));
    expect(Object.hasOwn(got.data.metadata, '__proto__')).toBe(false);
    expect(got.data.metadata).toEqual({ a: 1 });
  });
});
