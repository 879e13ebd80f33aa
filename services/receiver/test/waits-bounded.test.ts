import { describe, expect, it } from 'vitest';
import { Failure } from '@devtrail/failures';
import type { KeyGrant } from '@devtrail/relational-store';
import type { Producer } from '@devtrail/message-log';
import { ProduceQueue } from '../src/produce-queue.ts';
import { RateLimiter } from '../src/auth/rate-limiter.ts';
import { KeyCache } from '../src/auth/key-cache.ts';

// Every wait on a dependency is bounded. These drive the receiver's parts with
// dependencies that stall or fail on demand, which the real engines cannot do on cue
// (stub producer, stub lease and stub lookup: each test says which). The same behaviour
// on the real processes and engines: test/e2e/faults-*.test.ts.

/** A stub producer whose sends answer only when told to. */
function stalledProducer() {
  const sends: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  const producer: Producer = {
    connect: async () => {},
    disconnect: async () => {},
    send: () => new Promise<void>((resolve, reject) => void sends.push({ resolve, reject })),
  };
  return { producer, sends };
}
const message = { key: null, value: Buffer.from('{}'), headers: {} };
const settled = async (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: Error) => e.message,
  );

describe('produce queue (stub producer that stalls on demand)', () => {
  it('answers each request at its own deadline counted from its arrival, not from its turn', async () => {
    const { producer } = stalledProducer();
    const q = new ProduceQueue(producer, { maxPendingEvents: 1000, ackTimeoutMs: 300 });
    const t0 = Date.now();
    const first = settled(q.enqueue('t', [message]));
    await new Promise((r) => setTimeout(r, 100));
    const second = settled(q.enqueue('t', [message], 1, t0 - 100)); // arrived 100 ms before t0: deadline t0 + 200
    expect(await second).toMatch(/no acknowledgement .* within 300 ms/);
    expect(Date.now() - t0).toBeLessThan(300);
    expect(await first).toMatch(/within 300 ms/);
    expect(q.pending).toBe(1); // the first is still in flight: it may yet be written (hence Idempotency-Key)
  });

  it('refuses at once while the producer is failing, and lets one request probe', async () => {
    const { producer, sends } = stalledProducer();
    const q = new ProduceQueue(producer, { maxPendingEvents: 1000, ackTimeoutMs: 5000 });
    const failed = settled(q.enqueue('t', [message]));
    sends[0].reject(new Failure('broker down', true, 'message-log'));
    expect(await failed).toBe('broker down');
    const probe = settled(q.enqueue('t', [message])); // no send in flight: goes out
    const t0 = Date.now();
    expect(await settled(q.enqueue('t', [message]))).toMatch(/failing/); // a send is in flight: refused at once
    expect(Date.now() - t0).toBeLessThan(50);
    sends[1].resolve();
    expect(await probe).toBe('ok');
    const next = settled(q.enqueue('t', [message])); // healthy again: queued as usual
    await new Promise((r) => setTimeout(r, 10));
    sends[2].resolve();
    expect(await next).toBe('ok');
  });
});

describe('rate limiter (stub lease: the shared store never answers)', () => {
  it('decides at once and admits at most the limit per window on its own', () => {
    let clock = 60_000 * 1000 + 5_000;
    const states: boolean[] = [];
    const limiter = new RateLimiter(
      () => new Promise(() => {}),
      (failing) => states.push(failing),
      { now: () => clock },
    );
    const decisions = Array.from({ length: 12 }, () => limiter.take('k', 10));
    expect(decisions.map((d) => d.allowed)).toEqual([...Array(10).fill(true), false, false]);
    clock += 60_000; // the next window: a fresh allowance, still without waiting
    expect(limiter.take('k', 10).allowed).toBe(true);
  });

  it('pays back what it admitted on credit, and reports the store failing once and back once', async () => {
    let fail = true;
    let used = 0;
    const asked: number[] = [];
    const states: boolean[] = [];
    const limiter = new RateLimiter(
      async (_k, _w, n, limit) => {
        asked.push(n);
        if (fail) throw new Failure('unreachable', true, 'relational-store');
        const before = used;
        used += n;
        return { granted: Math.max(0, Math.min(n, limit - before)), used: Math.min(used, limit) };
      },
      (failing) => states.push(failing),
      { retryLeaseMs: 0, now: () => 60_000 * 2000 + 1000 },
    );
    for (let i = 0; i < 3; i++) limiter.take('k', 100);
    await new Promise((r) => setTimeout(r, 5));
    limiter.take('k', 100);
    await new Promise((r) => setTimeout(r, 5));
    expect(states).toEqual([true]);
    fail = false;
    limiter.take('k', 100);
    await new Promise((r) => setTimeout(r, 5));
    expect(states).toEqual([true, false]);
    // The successful lease asked for a block (2) plus the 5 requests admitted on credit.
    expect(asked.at(-1)).toBe(2 + 5);
  });
});

describe('key cache (stub lookup: PostgreSQL unreachable on demand)', () => {
  const grant = { keyId: 'k1', projectId: 'p1', keyHash: 'h', allowedOrigins: [], rateLimitPerMinute: 5000, drainSecret: null } as unknown as KeyGrant;
  it('serves a key it knows past its ttl while the store is unreachable, within the stale bound', async () => {
    let clock = 0;
    let down = false;
    const cache = new KeyCache(
      async () => {
        if (down) throw new Failure('Connection terminated due to connection timeout', true, 'relational-store');
        return grant;
      },
      { ttlMs: 60_000, maxStaleMs: 600_000, now: () => clock },
    );
    expect(await cache.get('h')).toBe(grant);
    down = true;
    clock = 120_000; // past the ttl, within the stale bound
    expect(await cache.get('h')).toBe(grant);
    await expect(cache.get('unknown')).rejects.toThrow(/connection timeout/); // never seen: 503
    clock = 700_000; // past the stale bound
    await expect(cache.get('h')).rejects.toThrow(/connection timeout/);
  });
});
