import { describe, expect, it } from 'vitest';
import { COLUMN, timestampInRange, TIMESTAMP_EXTREMES } from '@devtrail/column-store/store-domain';
import { errorReportSchema, fastLogsToEvents, llmUsageSchema, logBatchSchema, MAX_ID_LENGTH, spanSchema, drainBodySchema } from '@devtrail/kinds';
import { parseJsonBody } from '@devtrail/http';

// The receiver accepts exactly what the column store holds (store-domain.ts): each
// bound is accepted at its edge and refused one step past it, with a zod issue that
// names the field.
const iso = (ms: number) => new Date(ms).toISOString();
const pathOf = (r: { success: boolean; error?: { issues: Array<{ path: Array<string | number> }> } }) => r.error?.issues.map((i) => i.path.join('.'));

describe('timestamps: written so that the instant is one DateTime64(3) holds on ClickHouse 24.x', () => {
  const edges = [...TIMESTAMP_EXTREMES, '1901-01-01T00:00:00Z', '2298-12-31T23:59:59.999Z'];
  const beyond = [
    '1900-12-31T23:59:59.999Z', // the edge years are refused: the rule is a pattern the OpenAPI document carries
    '2299-01-01T00:00:00.000Z',
    '9999-12-31T23:59:59-01:00', // year 9999 with a negative offset
    '0000-01-01T00:00:00+01:00', // year 0000 with a positive offset
    '2024-01-01T00:00:00+99:99', // an offset no Date can read
  ];

  it('accepts the edges and refuses past them, on every timestamp field', () => {
    for (const ts of edges) expect(timestampInRange(ts), ts).toBe(true);
    for (const ts of TIMESTAMP_EXTREMES) expect(Math.abs(Date.parse(ts) - (ts < '2000' ? COLUMN.time.minMs : COLUMN.time.maxMs))).toBeLessThan(366 * 86400_000);
    for (const ts of beyond) {
      expect(timestampInRange(ts), ts).toBe(false);
      const log = logBatchSchema.safeParse({ logs: [{ level: 'info', message: 'm', timestamp: ts }] });
      expect(pathOf(log), ts).toEqual(['logs.0.timestamp']);
      const span = spanSchema.safeParse({ trace_id: 't', span_id: 's', operation: 'o', start_time: ts, duration_ms: 1 });
      expect(pathOf(span)).toEqual(['start_time']);
      const crumb = errorReportSchema.safeParse({ error_message: 'e', stack_trace: 's', breadcrumbs: [{ type: 't', message: 'm', timestamp: ts }] });
      expect(pathOf(crumb)).toEqual(['breadcrumbs.0.timestamp']);
    }
  });

  it('keeps the log fast path in step with the schema at the edges', () => {
    const now = new Date().toISOString();
    for (const ts of edges) expect(fastLogsToEvents({ logs: [{ level: 'info', message: 'm', timestamp: ts }] }, now)).toBeDefined();
    for (const ts of beyond) expect(fastLogsToEvents({ logs: [{ level: 'info', message: 'm', timestamp: ts }] }, now)).toBeUndefined();
  });

  it('bounds drain timestamps (epoch ms) the same way', () => {
    expect(drainBodySchema.safeParse([{ timestamp: COLUMN.time.maxMs }]).success).toBe(true);
    expect(pathOf(drainBodySchema.safeParse([{ timestamp: COLUMN.time.maxMs + 1 }]))).toEqual(['0.timestamp']);
    expect(pathOf(drainBodySchema.safeParse([{ timestamp: 1e300 }]))).toEqual(['0.timestamp']);
  });
});

describe('numbers: integer columns hold exact JSON integers, Float64 finite ones', () => {
  const span = (duration_ms: number) => spanSchema.safeParse({ trace_id: 't', span_id: 's', operation: 'o', start_time: iso(Date.now()), duration_ms });
  const llm = (over: Record<string, number>) =>
    llmUsageSchema.safeParse({ model: 'm', provider: 'p', operation: 'o', input_tokens: 1, output_tokens: 1, latency_ms: 1, ...over });

  it('accepts 2^53 - 1 and refuses what lies beyond (1e20 would wrap, 1e21 is not an integer literal)', () => {
    expect(span(COLUMN.count.max).success).toBe(true);
    for (const n of [COLUMN.count.max + 2, 1e20, 1e21, Infinity]) expect(pathOf(span(n)), String(n)).toEqual(['duration_ms']);
    for (const field of ['input_tokens', 'output_tokens', 'latency_ms']) {
      expect(pathOf(llm({ [field]: 1e30 }))).toEqual([field]);
      expect(llm({ [field]: -0 }).success).toBe(true);
    }
  });

  it('refuses a cost that JSON turned into Infinity (1e309)', () => {
    const body = parseJsonBody('{"model":"m","provider":"p","operation":"o","input_tokens":1,"output_tokens":1,"latency_ms":1,"cost_usd":1e309}');
    expect(pathOf(llmUsageSchema.safeParse(body))).toEqual(['cost_usd']);
    expect(llm({ cost_usd: 1e308 }).success).toBe(true);
  });
});

describe(`ids: trace, span, parent and request ids are at most ${MAX_ID_LENGTH} characters`, () => {
  it('accepts the bound and refuses one more, on ingest and in the drain', () => {
    const at = 'a'.repeat(MAX_ID_LENGTH);
    const over = `${at}b`;
    expect(logBatchSchema.safeParse({ logs: [{ level: 'info', message: 'm', trace_id: at, span_id: at, request_id: at }] }).success).toBe(true);
    expect(pathOf(logBatchSchema.safeParse({ logs: [{ level: 'info', message: 'm', request_id: over }] }))).toEqual(['logs.0.request_id']);
    expect(fastLogsToEvents({ logs: [{ level: 'info', message: 'm', trace_id: over }] }, iso(0))).toBeUndefined();
    const s = { trace_id: at, span_id: at, parent_span_id: at, operation: 'o', start_time: iso(0), duration_ms: 1 };
    expect(spanSchema.safeParse(s).success).toBe(true);
    for (const f of ['trace_id', 'span_id', 'parent_span_id']) expect(pathOf(spanSchema.safeParse({ ...s, [f]: over }))).toEqual([f]);
    expect(pathOf(errorReportSchema.safeParse({ error_message: 'e', stack_trace: 's', trace_id: over }))).toEqual(['trace_id']);
    expect(pathOf(drainBodySchema.safeParse([{ timestamp: 0, traceId: over }]))).toEqual(['0.traceId']);
  });
});

describe('JSON bodies: lone surrogates become U+FFFD, everywhere', () => {
  it('normalises strings, nested values and keys, and leaves pairs alone', () => {
    const text = String.raw`{"message":"cut \ud83d","ok":"pair \ud83d\ude00","metadata":{"k\udc00ey":["\udfff",{"deep":"\ud800x"}]}}`;
    expect(parseJsonBody(text)).toEqual({ message: 'cut \ufffd', ok: 'pair 😀', metadata: { 'k\ufffdey': ['\ufffd', { deep: '\ufffdx' }] } });
  });

  it('walks a 100,000-deep body without overflowing the stack', () => {
    const depth = 100_000;
    const text = `${'['.repeat(depth)}"\\ud800"${']'.repeat(depth)}`;
    let v = parseJsonBody(text) as unknown;
    for (let i = 0; i < depth; i++) v = (v as unknown[])[0];
    expect(v).toBe('\ufffd');
  });

  it('refuses prototype poisoning keys (the answer is 400 Malformed JSON body)', () => {
    expect(() => parseJsonBody('{"__proto__":{"x":1}}')).toThrow(SyntaxError);
    expect(() => parseJsonBody('{"constructor":{"prototype":{"x":1}}}')).toThrow(SyntaxError);
  });
});
