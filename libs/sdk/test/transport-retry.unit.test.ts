import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, parseRetryAfter } from '../src/transport/backoff.js';
import { ok, status } from './helpers/fake-fetch.js';
import { appLogs, log, makeTransport } from './helpers/transport.js';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2024-06-01T00:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

const error = { error_message: 'boom', stack_trace: 's' };

describe('backoff and Retry-After parsing', () => {
  it('doubles per attempt, caps at the maximum, and jitters within [half, full]', () => {
    expect([1, 2, 3, 4].map((a) => backoffDelay(a, 500, 30_000, () => 1))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffDelay(20, 500, 30_000, () => 1)).toBe(30_000);
    expect(backoffDelay(3, 500, 30_000, () => 0)).toBe(1000);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(3, 500, 30_000);
      expect(d).toBeGreaterThanOrEqual(1000);
      expect(d).toBeLessThanOrEqual(2000);
    }
  });

  it('reads delay-seconds and HTTP dates', () => {
    const now = Date.parse('2024-06-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Sat, 01 Jun 2024 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Fri, 31 May 2024 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('999999', now)).toBe(600_000);
  });
});

describe('retries', () => {
  it('retries a 503 after the jittered exponential backoff', async () => {
    const { transport, calls } = makeTransport((_c, i) => (i === 0 ? status(503) : ok()));
    transport.send('error', error);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    // attempt 1: nominal 500 ms, random 0.5 -> 250 + 125
    await vi.advanceTimersByTimeAsync(374);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(calls[1].body).toEqual(calls[0].body);
    expect(transport.stats()).toMatchObject({ sent: 1, retried: 1, dropped: 0 });
  });

  it('backs off exponentially and gives up after maxRetries, counting the drop', async () => {
    const start = Date.now();
    const times: number[] = [];
    const { transport, calls, warn } = makeTransport(
      () => {
        times.push(Date.now() - start);
        return status(500);
      },
      { maxRetries: 3, random: () => 1 },
    );
    transport.send('error', error);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(4); // first try + 3 retries
    expect(times).toEqual([0, 500, 1500, 3500]);
    expect(transport.stats()).toMatchObject({ sent: 0, retried: 3, dropped: 1, droppedRetriesExhausted: 1 });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('gave up after 4 attempts'));
  });

  it('honours Retry-After (seconds) on 429 instead of its own backoff', async () => {
    const { transport, calls } = makeTransport((_c, i) => (i === 0 ? status(429, { 'retry-after': '7' }) : ok()));
    transport.send('error', error);
    await vi.advanceTimersByTimeAsync(6999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(transport.stats().sent).toBe(1);
  });

  it('honours Retry-After as an HTTP date on 503', async () => {
    const { transport, calls } = makeTransport((_c, i) => (i === 0 ? status(503, { 'retry-after': 'Sat, 01 Jun 2024 00:00:20 GMT' }) : ok()));
    transport.send('error', error);
    await vi.advanceTimersByTimeAsync(19_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
  });

  it('pauses everything while waiting out a Retry-After', async () => {
    const { transport, calls } = makeTransport((_c, i) => (i === 0 ? status(429, { 'retry-after': '5' }) : ok()));
    transport.send('error', { ...error, error_message: 'first' });
    await vi.advanceTimersByTimeAsync(1000);
    transport.send('error', { ...error, error_message: 'second' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(calls.map((c) => c.body.errors.map((e: any) => e.error_message))).toEqual([['first'], ['first'], ['second']]);
  });

  it('retries network errors', async () => {
    const { transport, calls } = makeTransport((_c, i) => (i === 0 ? new TypeError('fetch failed') : ok()));
    transport.send('error', error);
    await vi.advanceTimersByTimeAsync(375);
    expect(calls).toHaveLength(2);
    expect(transport.stats()).toMatchObject({ sent: 1, retried: 1 });
  });

  it.each([400, 401, 403, 404])('never retries a %i', async (code) => {
    const { transport, calls, warn } = makeTransport(() => status(code));
    transport.send('error', error);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(1);
    expect(transport.stats()).toMatchObject({ sent: 0, retried: 0, dropped: 1, droppedRejected: 1 });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(`HTTP ${code}`));
  });

  it('a lone record answered 413 is dropped as too large, not retried', async () => {
    const { transport, calls } = makeTransport(() => status(413));
    transport.send('error', error);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(1);
    expect(transport.stats()).toMatchObject({ sent: 0, dropped: 1, droppedTooLarge: 1 });
  });

  it('retries a request as the same request: same events, same body, same Idempotency-Key (a UUIDv7)', async () => {
    const { transport, calls } = makeTransport((_c, i) => (i === 0 ? status(503) : i === 1 ? new Error('socket hang up') : ok()), { batchSize: 2, maxConcurrency: 1 });
    transport.send('log', log('a'));
    transport.send('log', log('b'));
    await vi.advanceTimersByTimeAsync(0);
    transport.send('log', log('c')); // waits behind the retried batch, never joins it
    transport.send('error', error);
    await vi.advanceTimersByTimeAsync(60_000);
    const [first, second, third] = calls;
    expect(first.headers['idempotency-key']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([second.headers['idempotency-key'], third.headers['idempotency-key']]).toEqual([first.headers['idempotency-key'], first.headers['idempotency-key']]);
    expect([second.body, third.body]).toEqual([first.body, first.body]);
    const others = calls.slice(3);
    expect(
      others.map((c) =>
        Object.keys(c.body)
          .filter((k) => ['logs', 'errors'].includes(k))
          .sort(),
      ),
    ).toEqual([['errors'], ['logs']]);
    expect(new Set(calls.map((c) => c.headers['idempotency-key'])).size).toBe(3);
  });

  it('puts a failed log batch back in order and sends it without waiting for a full batch', async () => {
    const { transport, calls } = makeTransport((_c, i) => (i === 0 ? status(502) : ok()), { batchSize: 2 });
    transport.send('log', log('a'));
    transport.send('log', log('b'));
    await vi.advanceTimersByTimeAsync(0);
    transport.send('log', log('c'));
    await vi.advanceTimersByTimeAsync(374);
    expect(calls).toHaveLength(1);
    // after the backoff: the old batch first, then the lone newer log without waiting for the interval
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.body.logs.map((l: any) => l.message))).toEqual([['a', 'b'], ['a', 'b'], ['c']]);
  });
});

describe('one bad record never takes a batch down', () => {
  it('a record the receiver refuses is dropped alone, counted with its reason; the others count as sent', async () => {
    const { transport, warn } = makeTransport(
      () => new Response(JSON.stringify({ ok: true, count: 2, rejected: 1, reasons: ['logs 1: level: Invalid enum value'] }), { status: 200 }),
    );
    for (const m of ['a', 'b', 'c']) transport.send('log', log(m));
    expect(await transport.flush()).toBe(true);
    expect(transport.stats()).toMatchObject({ sent: 2, dropped: 1, droppedRejected: 1 });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('logs 1: level: Invalid enum value'));
  });

  it.each([
    [413, 'droppedTooLarge'],
    [400, 'droppedRejected'],
  ])('a batch answered %i whole is split until the bad record stands alone; the other records are sent', async (code, counter) => {
    const { transport, calls } = makeTransport((c) => (c.body.logs?.some((l: any) => l.message === 'bad') ? status(code) : ok()));
    for (let i = 0; i < 30; i++) transport.send('log', log(i === 17 ? 'bad' : `ok${i}`));
    expect(await transport.flush()).toBe(true);
    // 29 logs, and for a 413 the SDK's report of the drop (drop-report.ts; a refused record the receiver counts itself)
    expect(transport.stats()).toMatchObject({ sent: code === 413 ? 30 : 29, dropped: 1, [counter]: 1 });
    const delivered = appLogs(calls.filter((c) => !c.body.logs.some((l: any) => l.message === 'bad'))).map((l: any) => l.message);
    expect(delivered.sort()).toEqual(
      Array.from({ length: 30 }, (_, i) => `ok${i}`)
        .filter((m) => m !== 'ok17')
        .sort(),
    );
    // 30 -> 15 -> 8 -> 4 -> 2 -> 1: a handful of requests, not one per record
    expect(calls.length).toBeLessThanOrEqual(12);
    // each half is a request of its own, with a key of its own
    expect(new Set(calls.map((c) => c.headers['idempotency-key'])).size).toBe(calls.length);
  });

  it('a 413 and then a 400 both get a warning (warnings are limited per reason)', async () => {
    const { transport, warn } = makeTransport((c) => (c.body.logs?.[0]?.message === 'huge' ? status(413) : status(400)));
    transport.send('log', log('huge'));
    await transport.flush();
    transport.send('log', log('invalid'));
    await transport.flush();
    expect(warn.mock.calls.map(([m]) => m.match(/HTTP \d+/)?.[0])).toEqual(['HTTP 413', 'HTTP 400']);
  });
});

describe('bounded queue', () => {
  it('drops the oldest records when more than maxQueueBytes wait', async () => {
    const { transport, calls } = makeTransport(undefined, { maxQueueBytes: 4096, flushIntervalMs: 60_000 });
    for (let i = 0; i < 20; i++) transport.send('log', log(`${i}`.padEnd(500, '.')));
    const { queuedBytes, droppedQueueFull } = transport.stats();
    expect(queuedBytes).toBeLessThanOrEqual(4096);
    expect(droppedQueueFull).toBeGreaterThan(10);
    await transport.flush();
    expect(
      appLogs(calls)
        .map((l: any) => l.message.split('.')[0])
        .at(-1),
    ).toBe('19');
  });

  it('drops the oldest events when full and warns with a count', async () => {
    const { transport, calls, warn } = makeTransport(undefined, { maxQueueSize: 3 });
    for (const m of ['1', '2', '3', '4', '5']) transport.send('log', log(m));
    expect(transport.stats()).toMatchObject({ queued: 3, dropped: 2, droppedQueueFull: 2 });
    // the first drop warns; the next one within 10 s is only counted
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/dropped 1 record\(s\): queue full \(maxQueueSize 3, maxQueueBytes \d+\)/);
    await transport.flush();
    expect(calls[0].body.logs.map((l: any) => l.message)).toEqual(['3', '4', '5']);
    await vi.advanceTimersByTimeAsync(10_000);
    for (const m of ['6', '7', '8', '9']) transport.send('log', log(m));
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[1][0]).toMatch(/^dropped 2 record\(s\).*3 dropped for this reason/);
  });

  it('bounds events waiting for a retry too', async () => {
    const { transport } = makeTransport(() => status(503), { maxQueueSize: 2 });
    transport.send('error', { error_message: 'a' });
    await vi.advanceTimersByTimeAsync(0); // a failed, back in the queue, paused
    transport.send('error', { error_message: 'b' });
    transport.send('error', { error_message: 'c' });
    expect(transport.stats()).toMatchObject({ queued: 2, droppedQueueFull: 1 });
  });

  it('flush() resolves false when it cannot finish in time', async () => {
    const { transport } = makeTransport(() => status(429, { 'retry-after': '60' }));
    transport.send('error', error);
    const flushed = transport.flush(1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await flushed).toBe(false);
  });
});
