import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KINDS, spanSchema, spanToEvent } from '@devtrail/kinds';
import { runs } from '../../../test/support/property.ts';

// The span fast path (span/fast-path.ts) must never accept what spanSchema refuses, and must
// give byte for byte what spanSchema + spanToEvent give; for anything unusual it defers.

const NOW = '2026-11-21T10:00:00.000Z';
const zodPath = (body: unknown) => {
  const parsed = spanSchema.safeParse(body);
  return parsed.success ? [spanToEvent(parsed.data)] : undefined;
};

const deep = (n: number): unknown => (n === 0 ? 1 : { a: deep(n - 1) });
const anything = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 2 }),
  fc.constant(-0),
  fc.constant(Number.NaN),
  fc.constant(Number.POSITIVE_INFINITY),
);
const times = fc.constantFrom(
  '2026-11-21T10:00:00Z',
  '2026-11-21T10:00:00.123Z',
  '2026-11-21T12:00:00+02:00',
  '2026-11-21T10:00:00.123456-0130',
  '1901-01-01T00:00:00.000+23:59',
  '1900-12-31T23:59:59Z',
  '2299-01-01T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-11-21 10:00:00',
  'yesterday',
);
const validish = fc.record(
  {
    service: fc.oneof(fc.string({ maxLength: 6 }), anything),
    environment: fc.oneof(fc.string({ maxLength: 6 }), anything),
    release: fc.oneof(fc.string({ maxLength: 130 }), anything),
    trace_id: fc.oneof(fc.stringMatching(/^[0-9a-f]{0,32}$/), fc.string({ minLength: 127, maxLength: 129 }), anything),
    span_id: fc.oneof(fc.stringMatching(/^[0-9a-f]{0,16}$/), anything),
    parent_span_id: fc.oneof(fc.stringMatching(/^[0-9a-f]{0,16}$/), anything),
    operation: fc.oneof(fc.string({ maxLength: 8 }), anything),
    start_time: fc.oneof(times, anything),
    duration_ms: fc.oneof(fc.double({ min: -1, max: 1e16 }), fc.nat(), fc.constant(Number.MAX_SAFE_INTEGER), fc.constant(Number.MAX_SAFE_INTEGER + 2), anything),
    status: fc.oneof(fc.constantFrom('ok', 'error', 'OK', 'unset'), anything),
    metadata: fc.oneof(
      fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
      fc.constant(deep(31)),
      fc.constant(deep(32)),
      fc.constant(deep(40)),
      fc.constant(JSON.parse('{"__proto__":{"x":1},"a":1}')),
      anything,
    ),
    future_field: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);
// Mostly well-formed: one field at a time made odd.
const span = fc.oneof(
  validish,
  fc
    .record({
      trace_id: fc.stringMatching(/^[0-9a-f]{0,32}$/),
      span_id: fc.stringMatching(/^[0-9a-f]{0,16}$/),
      operation: fc.string({ maxLength: 8 }),
      start_time: times,
      duration_ms: fc.nat(),
    })
    .chain((base) => fc.record({ extra: validish }).map(({ extra }) => ({ ...base, ...Object.fromEntries(Object.entries(extra).slice(0, 1)) }))),
);

describe('the span fast path', () => {
  it('refuses whatever zod refuses, and otherwise agrees with it byte for byte or defers to it', () => {
    const RUNS = runs(3000);
    let fast = 0;
    fc.assert(
      fc.property(span, (body) => {
        const got = KINDS.span.fastEvents!(body, NOW);
        const expected = zodPath(body);
        if (got === undefined) return;
        fast++;
        expect(expected, JSON.stringify(body)).toBeDefined();
        expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
      }),
      { numRuns: RUNS },
    );
    // The fast path took a fair share of the bodies, whatever the seed.
    expect(fast).toBeGreaterThan(RUNS / 10);
  });

  it('takes the fast way for a well-formed span', () => {
    const body = { trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16), operation: 'GET /', start_time: '2026-11-21T10:00:00.000Z', duration_ms: 41.6, metadata: { n: 1 } };
    expect(KINDS.span.fastEvents!(body, NOW)).toEqual(zodPath(body));
  });
});
