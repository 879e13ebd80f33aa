import { describe, expect, it } from 'vitest';
import { isValidSpanId, isValidTraceId, newSpanId, newTraceId } from '../src/ids.js';
import { createTraceHeaders, extractTraceContext, formatTraceparent, parseTraceparent } from '../src/trace-context.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('W3C traceparent', () => {
  it('parses a valid header', () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)?.sampled).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['garbage', 'hello'],
    ['upper-case hex', `00-${TRACE.toUpperCase()}-${SPAN}-01`],
    ['all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['all-zero span id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['version ff', `ff-${TRACE}-${SPAN}-01`],
    ['version 00 with extra field', `00-${TRACE}-${SPAN}-01-extra`],
    ['short trace id', `00-${TRACE.slice(1)}-${SPAN}-01`],
  ])('rejects %s', (_name, header) => {
    expect(parseTraceparent(header)).toBeUndefined();
  });

  it('accepts future versions with extra fields', () => {
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-whatever`)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true });
  });

  it('emits version 00 and round-trips', () => {
    const header = formatTraceparent({ traceId: TRACE, spanId: SPAN });
    expect(header).toBe(`00-${TRACE}-${SPAN}-01`);
    expect(parseTraceparent(header)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true });
  });
});

describe('extractTraceContext', () => {
  it('prefers traceparent over x-trace-id', () => {
    const ctx = extractTraceContext({ traceparent: `00-${TRACE}-${SPAN}-01`, 'x-trace-id': 'f'.repeat(32), 'x-request-id': 'r1' });
    expect(ctx).toEqual({ traceId: TRACE, parentSpanId: SPAN, sampled: true, requestId: 'r1' });
  });

  it('falls back to x-trace-id / x-span-id, leniently (case, UUID dashes)', () => {
    const headers = new Headers({ 'x-trace-id': '4BF92F35-77B3-4DA6-A3CE-929D0E0E4736', 'x-span-id': SPAN.toUpperCase() });
    expect(extractTraceContext(headers)).toEqual({ traceId: TRACE, parentSpanId: SPAN });
  });

  it('falls back when traceparent is invalid and ignores a bad x-span-id', () => {
    expect(extractTraceContext({ traceparent: 'nope', 'x-trace-id': TRACE, 'x-span-id': 'xyz' })).toEqual({ traceId: TRACE });
  });

  it('returns nothing for requests without trace headers', () => {
    expect(extractTraceContext({})).toEqual({});
    expect(extractTraceContext(undefined)).toEqual({});
  });

  it('builds outgoing headers', () => {
    expect(createTraceHeaders({ traceId: TRACE, spanId: SPAN }, 'req-9')).toEqual({
      traceparent: `00-${TRACE}-${SPAN}-01`,
      'x-trace-id': TRACE,
      'x-span-id': SPAN,
      'x-request-id': 'req-9',
    });
  });
});

describe('ids', () => {
  it('generates 32/16 lowercase hex ids', () => {
    for (let i = 0; i < 50; i++) {
      expect(newTraceId()).toMatch(/^[0-9a-f]{32}$/);
      expect(newSpanId()).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(isValidTraceId(newTraceId())).toBe(true);
    expect(isValidSpanId(newSpanId())).toBe(true);
    expect(newTraceId()).not.toBe(newTraceId());
  });
});
