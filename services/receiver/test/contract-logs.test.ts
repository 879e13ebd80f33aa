import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiverHarness, type Harness } from './harness.ts';

// docs/api.md for POST /ingest/logs, through fastify.inject.
let h: Harness;
beforeAll(async () => {
  h = await receiverHarness();
});
afterAll(async () => h.close());

const post = (payload: unknown, key = h.project.key) =>
  h.app.inject({
    method: 'POST',
    url: '/ingest/logs',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
const log = (extra: Record<string, unknown> = {}) => ({ level: 'info', message: 'hello', ...extra });

describe('POST /ingest/logs', () => {
  it('accepts a batch and answers {ok:true, count}', async () => {
    const res = await post({ logs: [log(), log({ level: 'error' })] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, count: 2 });
  });

  it('answers the documented 400 body byte for byte when logs is missing', async () => {
    const res = await post({ service: 'api' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(
      JSON.stringify({
        success: false,
        error: { issues: [{ code: 'invalid_type', expected: 'array', received: 'undefined', path: ['logs'], message: 'Required' }], name: 'ZodError' },
      }),
    );
  });

  it.each([
    ['level', { message: 'x' }, 'string'],
    ['message', { level: 'info' }, 'string'],
  ])('requires logs[].%s', async (field, entry, expected) => {
    const res = await post({ logs: [entry] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues).toEqual([
      expect.objectContaining({
        code: 'invalid_type',
        expected: field === 'level' ? "'debug' | 'info' | 'warn' | 'error'" : expected,
        received: 'undefined',
        path: ['logs', 0, field],
        message: 'Required',
      }),
    ]);
  });

  it.each(['debug', 'info', 'warn', 'error'])('accepts level %s', async (level) => {
    expect((await post({ logs: [log({ level })] })).statusCode).toBe(200);
  });

  it.each(['fatal', 'INFO', 'warning', ''])('rejects level %j', async (level) => {
    const res = await post({ logs: [log({ level })] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues[0]).toMatchObject({ code: 'invalid_enum_value', path: ['logs', 0, 'level'], received: level });
  });

  it('rejects an empty logs array and one longer than 1000', async () => {
    const empty = await post({ logs: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.issues[0]).toMatchObject({ code: 'too_small', path: ['logs'] });
    const over = await post({ logs: Array.from({ length: 1001 }, () => log()) });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.issues[0]).toMatchObject({ code: 'too_big', path: ['logs'] });
  });

  it('accepts exactly 1 and exactly 1000 logs', async () => {
    expect((await post({ logs: [log()] })).json()).toEqual({ ok: true, count: 1 });
    expect((await post({ logs: Array.from({ length: 1000 }, () => log()) })).json()).toEqual({ ok: true, count: 1000 });
  });

  it('limits release to 128 characters at top level and per entry', async () => {
    expect((await post({ release: 'r'.repeat(128), logs: [log({ release: 'e'.repeat(128) })] })).statusCode).toBe(200);
    const top = await post({ release: 'r'.repeat(129), logs: [log()] });
    expect(top.statusCode).toBe(400);
    expect(top.json().error.issues[0]).toMatchObject({ code: 'too_big', path: ['release'] });
    const entry = await post({ logs: [log({ release: 'e'.repeat(129) })] });
    expect(entry.json().error.issues[0]).toMatchObject({ code: 'too_big', path: ['logs', 0, 'release'] });
  });

  it('rejects wrong types with received set', async () => {
    const res = await post({ service: 5, logs: [log({ metadata: 'nope', trace_id: 7 })] });
    expect(res.statusCode).toBe(400);
    const issues = res.json().error.issues;
    expect(issues).toContainEqual(expect.objectContaining({ code: 'invalid_type', expected: 'string', received: 'number', path: ['service'] }));
    expect(issues).toContainEqual(expect.objectContaining({ code: 'invalid_type', expected: 'object', received: 'string', path: ['logs', 0, 'metadata'] }));
    expect(issues).toContainEqual(expect.objectContaining({ code: 'invalid_type', expected: 'string', received: 'number', path: ['logs', 0, 'trace_id'] }));
  });

  it('rejects a timestamp that is not ISO 8601', async () => {
    const res = await post({ logs: [log({ timestamp: 'yesterday' })] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues[0]).toMatchObject({ code: 'invalid_string', path: ['logs', 0, 'timestamp'] });
  });

  it('applies defaults and keeps every field in the Kafka message', async () => {
    const before = (await h.produced('log')).length;
    const t0 = Date.now();
    await post({ logs: [log({ message: 'defaults-probe' })] });
    await post({
      service: 'checkout',
      environment: 'staging',
      release: 'v2',
      logs: [
        log({
          message: 'full-probe',
          level: 'warn',
          timestamp: '2026-01-02T03:04:05.678+01:00',
          metadata: { user: { id: 7 }, tags: ['a'] },
          trace_id: 't1',
          span_id: 's1',
          request_id: 'r1',
          context: 'Billing',
          release: 'v2.1',
        }),
      ],
    });
    const all = await h.produced('log');
    expect(all.length).toBe(before + 2);
    const d = all.find((e) => e.data.message === 'defaults-probe')!;
    expect(d.data).toMatchObject({ service: 'unknown', environment: 'production', release: '', trace_id: '', metadata: {} });
    expect(Date.parse(d.data.timestamp)).toBeGreaterThanOrEqual(t0 - 1);
    expect(d.project_id).toBe(h.project.id);
    expect(d.event_id).toMatch(/^[0-9a-f-]{36}$/);
    const f = all.find((e) => e.data.message === 'full-probe')!;
    expect(f.data).toEqual({
      service: 'checkout',
      environment: 'staging',
      release: 'v2.1',
      timestamp: '2026-01-02T02:04:05.678Z',
      level: 'warn',
      message: 'full-probe',
      metadata: { user: { id: 7 }, tags: ['a'] },
      trace_id: 't1',
      span_id: 's1',
      request_id: 'r1',
      context: 'Billing',
    });
  });

  it('falls back to the batch release when an entry has none', async () => {
    await post({ release: 'batch-rel', logs: [log({ message: 'rel-probe' })] });
    const e = (await h.produced('log')).find((x) => x.data.message === 'rel-probe')!;
    expect(e.data.release).toBe('batch-rel');
  });
});
