import { describe, expect, it } from 'vitest';
import { WIRE_FIELD_NAMES, buildErrorReport, buildLlmRecord, buildLogEntry, buildSpanRecord, toWireKeys } from '../src/wire.js';

describe('camelCase -> snake_case mapping (docs/sdk.md)', () => {
  it('covers every row of the table', () => {
    expect(WIRE_FIELD_NAMES).toEqual({
      errorMessage: 'error_message',
      stackTrace: 'stack_trace',
      traceId: 'trace_id',
      spanId: 'span_id',
      parentSpanId: 'parent_span_id',
      startTime: 'start_time',
      durationMs: 'duration_ms',
      inputTokens: 'input_tokens',
      outputTokens: 'output_tokens',
      cachedInputTokens: 'cached_input_tokens',
      costUsd: 'cost_usd',
      latencyMs: 'latency_ms',
      userId: 'user_id',
      requestId: 'request_id',
    });
  });

  it('renames top-level keys only and leaves user data alone', () => {
    expect(toWireKeys({ traceId: 't', userId: 'u', metadata: { traceId: 'inner', someKey: 1 }, other: 2, gone: undefined })).toEqual({
      trace_id: 't',
      user_id: 'u',
      metadata: { traceId: 'inner', someKey: 1 },
      other: 2,
    });
  });

  it('accepts snake_case input unchanged', () => {
    expect(toWireKeys({ trace_id: 'a', input_tokens: 3 })).toEqual({ trace_id: 'a', input_tokens: 3 });
  });
});

describe('wire bodies', () => {
  it('builds a log entry with correlation ids and a clamped release', () => {
    const entry = buildLogEntry({
      level: 'warn',
      message: 'hi',
      timestamp: 0,
      metadata: { a: 1 },
      traceId: 'a'.repeat(32),
      spanId: 'b'.repeat(16),
      requestId: 'req-1',
      context: 'db',
      release: 'r'.repeat(200),
    });
    expect(entry).toEqual({
      level: 'warn',
      message: 'hi',
      timestamp: '1970-01-01T00:00:00.000Z',
      metadata: { a: 1 },
      trace_id: 'a'.repeat(32),
      span_id: 'b'.repeat(16),
      request_id: 'req-1',
      context: 'db',
      release: 'r'.repeat(128),
    });
  });

  it('defaults an unknown log level to info and stamps the time', () => {
    const entry = buildLogEntry({ level: 'fatal' as never, message: 'x' });
    expect(entry.level).toBe('info');
    expect(Number.isNaN(Date.parse(entry.timestamp))).toBe(false);
  });

  it('builds an error report with severity default and breadcrumbs', () => {
    const report = buildErrorReport({
      errorMessage: 'boom',
      stackTrace: 'Error: boom\n  at x',
      userId: 'u1',
      traceId: 'c'.repeat(32),
      context: { route: '/a' },
      breadcrumbs: [{ type: 'ui', message: 'click', timestamp: 1000 }],
    });
    expect(report).toEqual({
      error_message: 'boom',
      stack_trace: 'Error: boom\n  at x',
      severity: 'medium',
      context: { route: '/a' },
      trace_id: 'c'.repeat(32),
      user_id: 'u1',
      breadcrumbs: [{ type: 'ui', message: 'click', timestamp: '1970-01-01T00:00:01.000Z' }],
    });
  });

  it('sends a chosen fingerprint as the receiver takes it: up to 20 strings of up to 500 characters', () => {
    expect(buildErrorReport({ errorMessage: 'e', stackTrace: 's', fingerprint: ['{{ default }}', 'tenant-a'] }).fingerprint).toEqual(['{{ default }}', 'tenant-a']);
    const long = buildErrorReport({ errorMessage: 'e', stackTrace: 's', fingerprint: new Array(30).fill('x'.repeat(600)) }).fingerprint!;
    expect([long.length, long[0].length]).toEqual([20, 500]);
    expect(buildErrorReport({ errorMessage: 'e', stackTrace: 's', fingerprint: [] }).fingerprint).toBeUndefined();
  });

  it('never sends an empty stack_trace or an invalid severity', () => {
    const report = buildErrorReport({ errorMessage: '', stackTrace: '', severity: 'fatal' as never });
    expect(report.error_message).toBe('Unknown error');
    expect(report.stack_trace).toBe('Unknown error');
    expect(report.severity).toBe('medium');
  });

  it('builds a span: rounded non-negative duration, empty parent for roots', () => {
    const span = buildSpanRecord({
      traceId: 'a'.repeat(32),
      spanId: 'b'.repeat(16),
      operation: 'GET /x',
      startTime: 0,
      durationMs: 12.6,
      status: 'error',
    });
    expect(span).toEqual({
      trace_id: 'a'.repeat(32),
      span_id: 'b'.repeat(16),
      parent_span_id: '',
      operation: 'GET /x',
      start_time: '1970-01-01T00:00:00.000Z',
      duration_ms: 13,
      status: 'error',
    });
    expect(buildSpanRecord({ traceId: 't', spanId: 's', operation: 'o', startTime: 0, durationMs: -5 }).duration_ms).toBe(0);
  });

  it('builds an LLM record from camelCase', () => {
    expect(
      buildLlmRecord({
        model: 'gpt-x',
        provider: 'openai',
        operation: 'chat.completion',
        inputTokens: 10.4,
        outputTokens: 5.5,
        latencyMs: 120.2,
        costUsd: 0.0012,
        metadata: { k: 'v' },
      }),
    ).toEqual({
      model: 'gpt-x',
      provider: 'openai',
      operation: 'chat.completion',
      input_tokens: 10,
      output_tokens: 6,
      latency_ms: 120,
      cost_usd: 0.0012,
      metadata: { k: 'v' },
    });
  });

  it('sends cached input tokens only when given, as a whole count', () => {
    const base = { model: 'm', provider: 'p', operation: 'o', inputTokens: 100, outputTokens: 1, latencyMs: 1 };
    expect(buildLlmRecord({ ...base, cachedInputTokens: 40.2 }).cached_input_tokens).toBe(40);
    expect(buildLlmRecord(base)).not.toHaveProperty('cached_input_tokens');
  });

  it('clamps negative or missing LLM numbers to zero', () => {
    const rec = buildLlmRecord({ model: 'm', provider: 'p', operation: 'o', inputTokens: -1, outputTokens: NaN, latencyMs: -3 });
    expect(rec).toMatchObject({ input_tokens: 0, output_tokens: 0, latency_ms: 0, cost_usd: 0 });
  });
});
