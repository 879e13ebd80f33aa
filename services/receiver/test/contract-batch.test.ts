import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BATCH_SECTION } from '@devtrail/kinds';
import { receiverHarness, type Harness } from './harness.ts';

// POST /ingest/batch through the receiver's front door (fastify.inject, in-process log):
// records of every kind in one request, each checked by its kind's own schema, one message
// per kind, partial success for refused records (docs/api.md#batch).
let h: Harness;
beforeAll(async () => {
  h = await receiverHarness();
});
afterAll(async () => h.close());

const post = (body: unknown, headers: Record<string, string> = {}) =>
  h.app.inject({
    method: 'POST',
    url: '/ingest/batch',
    headers: { authorization: `Bearer ${h.project.key}`, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const span = (operation: string, duration_ms: number) => ({
  trace_id: TRACE,
  span_id: '00f067aa0ba902b7',
  operation,
  start_time: '2026-11-27T10:00:00.000Z',
  duration_ms,
});

describe('POST /ingest/batch', () => {
  it('takes every kind in one request: each record as its own route would, the top-level fields as defaults', async () => {
    const res = await post({
      service: 'shop',
      release: 'v9',
      logs: [
        { level: 'info', message: 'batch-log-1' },
        { level: 'warn', message: 'batch-log-2', release: 'v10' },
      ],
      errors: [
        { error_message: 'batch-error', stack_trace: 'Error: batch-error\n    at f (app.js:1:1)' },
        { error_message: 'other-service-error', stack_trace: 'x', service: 'billing' },
      ],
      spans: [span('batch-span', 12.4)],
      llm: [{ model: 'gpt-x', provider: 'openai', operation: 'chat', input_tokens: 3, output_tokens: 4, latency_ms: 5, cost_usd: 0.01 }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, count: 6, rejected: 0 });
    const logs = (await h.produced('log')).filter((e) => e.data.message.startsWith('batch-log'));
    expect(logs.map((e) => [e.data.message, e.data.service, e.data.release])).toEqual([
      ['batch-log-1', 'shop', 'v9'],
      ['batch-log-2', 'shop', 'v10'],
    ]);
    const errors = (await h.produced('error')).filter((e) => e.data.error_message.includes('error'));
    expect(errors.map((e) => [e.data.error_message, e.data.service, e.data.release, e.data.severity])).toEqual([
      ['batch-error', 'shop', 'v9', 'medium'],
      ['other-service-error', 'billing', 'v9', 'medium'],
    ]);
    expect(errors[0].data.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const spans = (await h.produced('span')).filter((e) => e.data.operation === 'batch-span');
    expect(spans.map((e) => [e.data.duration_ms, e.data.environment, e.data.parent_span_id])).toEqual([[12, 'production', '']]);
    expect((await h.produced('llm')).find((e) => e.data.model === 'gpt-x')?.data).toMatchObject({ service: 'shop', input_tokens: 3, cost_usd: 0.01 });
  });

  it('refuses a bad record on its own: named in the answer, the others stored', async () => {
    const res = await post({
      logs: [
        { level: 'info', message: 'kept-log' },
        { level: 'loud', message: 'refused-log' },
      ],
      spans: [span('refused-span', -1), span('kept-span', 1)],
      errors: ['not an object'],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ok: true, count: 2, rejected: 3 });
    expect(body.reasons.join('\n')).toMatch(/logs 1: level/);
    expect(body.reasons.join('\n')).toMatch(/spans 0: duration_ms/);
    expect(body.reasons.join('\n')).toMatch(/errors 0/);
    expect((await h.produced('log')).map((e) => e.data.message)).toContain('kept-log');
    expect((await h.produced('log')).map((e) => e.data.message)).not.toContain('refused-log');
    const ops = (await h.produced('span')).map((e) => e.data.operation);
    expect(ops).toContain('kept-span');
    expect(ops).not.toContain('refused-span');
  });

  it('answers 400 with the contract body for a request of the wrong shape', async () => {
    for (const body of [
      {},
      { logs: [] },
      { logs: 'x' },
      { spans: [span('s', 1)], release: 'r'.repeat(129) },
      { logs: Array.from({ length: MAX_BATCH_SECTION + 1 }, () => ({ level: 'info', message: 'm' })) },
    ]) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: { name: 'ZodError' } });
      expect(res.json().error.issues.length).toBeGreaterThan(0);
    }
  });

  it('a retry with the same Idempotency-Key writes the same event ids', async () => {
    const body = { logs: [{ level: 'info', message: 'idem-log' }], spans: [span('idem-span', 1)] };
    const key = 'batch-retry-0001';
    expect((await post(body, { 'idempotency-key': key })).statusCode).toBe(200);
    expect((await post(body, { 'idempotency-key': key })).statusCode).toBe(200);
    const logIds = (await h.produced('log')).filter((e) => e.data.message === 'idem-log').map((e) => e.event_id);
    const spanIds = (await h.produced('span')).filter((e) => e.data.operation === 'idem-span').map((e) => e.event_id);
    expect(logIds).toHaveLength(2);
    expect(new Set(logIds).size).toBe(1);
    expect(new Set(spanIds).size).toBe(1);
  });
});
