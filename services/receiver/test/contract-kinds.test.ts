import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiverHarness, type Harness } from './harness.ts';

// docs/api.md for errors, traces and LLM records, through fastify.inject.
let h: Harness;
beforeAll(async () => {
  h = await receiverHarness();
});
afterAll(async () => h.close());

const post = (url: string, payload: unknown) =>
  h.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${h.project.key}`, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

const missing = (field: string, expected: string) => ({ code: 'invalid_type', expected, received: 'undefined', path: [field], message: 'Required' });

describe('POST /ingest/errors', () => {
  const err = { error_message: 'Boom 42', stack_trace: 'Error: Boom 42\n    at run (/app/src/job.js:10:5)' };

  it('answers {ok:true, fingerprint} with a 64-hex fingerprint, the same for identical content', async () => {
    const a = await post('/ingest/errors', err);
    const b = await post('/ingest/errors', err);
    expect(a.statusCode).toBe(200);
    expect(Object.keys(a.json())).toEqual(['ok', 'fingerprint']);
    expect(a.json().fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(b.json().fingerprint).toBe(a.json().fingerprint);
  });

  it.each([
    ['error_message', 'string'],
    ['stack_trace', 'string'],
  ])('requires %s', async (field) => {
    const body: Record<string, unknown> = { ...err };
    delete body[field];
    const res = await post('/ingest/errors', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: { issues: [missing(field, 'string')], name: 'ZodError' } });
  });

  it('defaults severity to medium and accepts each severity', async () => {
    await post('/ingest/errors', { ...err, error_message: 'sev-default' });
    for (const s of ['low', 'medium', 'high', 'critical']) expect((await post('/ingest/errors', { ...err, severity: s })).statusCode).toBe(200);
    const e = (await h.produced('error')).find((x) => x.data.error_message === 'sev-default')!;
    expect(e.data).toMatchObject({
      severity: 'medium',
      service: 'unknown',
      environment: 'production',
      release: '',
      user_id: '',
      trace_id: '',
      breadcrumbs: [],
      context: {},
    });
  });

  it('rejects a severity outside low/medium/high/critical', async () => {
    const res = await post('/ingest/errors', { ...err, severity: 'fatal' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues[0]).toMatchObject({ code: 'invalid_enum_value', path: ['severity'] });
  });

  it('validates breadcrumbs and keeps every field', async () => {
    const bad = await post('/ingest/errors', { ...err, breadcrumbs: [{ type: 'http', message: 'GET /' }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.issues[0]).toMatchObject({ code: 'invalid_type', path: ['breadcrumbs', 0, 'timestamp'], received: 'undefined', message: 'Required' });
    const crumbs = [{ type: 'ui', message: 'clicked buy', timestamp: '2026-11-21T10:00:00.000Z' }];
    const ok = await post('/ingest/errors', {
      ...err,
      error_message: 'full-err',
      severity: 'critical',
      context: { cart: 3 },
      trace_id: 'tr',
      user_id: 'u1',
      breadcrumbs: crumbs,
      service: 's',
      environment: 'e',
      release: 'r',
    });
    expect(ok.statusCode).toBe(200);
    const e = (await h.produced('error')).find((x) => x.data.error_message === 'full-err')!;
    expect(e.data).toMatchObject({
      severity: 'critical',
      context: { cart: 3 },
      trace_id: 'tr',
      user_id: 'u1',
      breadcrumbs: crumbs,
      service: 's',
      environment: 'e',
      release: 'r',
      error_type: 'Error',
    });
    expect(e.data.fingerprint).toBe(ok.json().fingerprint);
  });
});

describe('POST /ingest/traces', () => {
  const span = { trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16), operation: 'GET /users', start_time: '2026-11-21T10:00:00.000Z', duration_ms: 12.6 };

  it('answers {ok:true}, rounds duration_ms and applies defaults', async () => {
    const res = await post('/ingest/traces', span);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const e = (await h.produced('span')).at(-1)!;
    expect(e.data).toMatchObject({ duration_ms: 13, parent_span_id: '', status: 'ok', service: 'unknown', environment: 'production', metadata: {} });
  });

  it.each([
    ['trace_id', 'string'],
    ['span_id', 'string'],
    ['operation', 'string'],
    ['start_time', 'string'],
    ['duration_ms', 'number'],
  ])('requires %s', async (field, expected) => {
    const body: Record<string, unknown> = { ...span };
    delete body[field];
    const res = await post('/ingest/traces', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues).toEqual([missing(field, expected)]);
  });

  it('rejects a negative duration_ms and a status outside ok/error; accepts 0 and error', async () => {
    const neg = await post('/ingest/traces', { ...span, duration_ms: -1 });
    expect(neg.statusCode).toBe(400);
    expect(neg.json().error.issues[0]).toMatchObject({ code: 'too_small', path: ['duration_ms'] });
    const st = await post('/ingest/traces', { ...span, status: 'failed' });
    expect(st.json().error.issues[0]).toMatchObject({ code: 'invalid_enum_value', path: ['status'] });
    expect((await post('/ingest/traces', { ...span, duration_ms: 0, status: 'error', parent_span_id: 'c'.repeat(16) })).statusCode).toBe(200);
    expect((await h.produced('span')).at(-1)!.data).toMatchObject({ duration_ms: 0, status: 'error', parent_span_id: 'c'.repeat(16) });
  });
});

describe('POST /ingest/llm', () => {
  const rec = { model: 'gpt-4o', provider: 'openai', operation: 'chat', input_tokens: 100.4, output_tokens: 20.5, latency_ms: 812.2 };

  it('answers {ok:true}, rounds counts and defaults cost_usd to 0', async () => {
    const res = await post('/ingest/llm', { ...rec, operation: 'rounding-probe' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    // LLM records spread over partitions by event id: find this one by content, not position.
    expect((await h.produced('llm')).find((e) => e.data.operation === 'rounding-probe')!.data).toMatchObject({
      input_tokens: 100,
      output_tokens: 21,
      latency_ms: 812,
      cost_usd: 0,
      service: 'unknown',
      environment: 'production',
    });
  });

  it.each([
    ['model', 'string'],
    ['provider', 'string'],
    ['operation', 'string'],
    ['input_tokens', 'number'],
    ['output_tokens', 'number'],
    ['latency_ms', 'number'],
  ])('requires %s', async (field, expected) => {
    const body: Record<string, unknown> = { ...rec };
    delete body[field];
    const res = await post('/ingest/llm', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues).toEqual([missing(field, expected)]);
  });

  it.each(['input_tokens', 'output_tokens', 'latency_ms'])('rejects a negative %s', async (field) => {
    const res = await post('/ingest/llm', { ...rec, [field]: -1 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues[0]).toMatchObject({ code: 'too_small', path: [field] });
  });

  it('keeps cost_usd, metadata, service, environment and release', async () => {
    await post('/ingest/llm', { ...rec, operation: 'fields-probe', cost_usd: 0.0123, metadata: { prompt_id: 'p1' }, service: 'bot', environment: 'dev', release: '1.0' });
    expect((await h.produced('llm')).find((e) => e.data.operation === 'fields-probe')!.data).toMatchObject({
      cost_usd: 0.0123,
      metadata: { prompt_id: 'p1' },
      service: 'bot',
      environment: 'dev',
      release: '1.0',
    });
  });
});
