import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { RetryMemory } from '../src/retry-memory.ts';

// What the receiver remembers of a request it answered 503 after sending it on (retry-memory.ts):
// by project, route and body, for the window, at most `max` of them, forgotten once stored.

/** The parts of a request the memory reads (a plain object standing in for Fastify's). */
const requestLike = (projectId: string, url: string, body: string) =>
  ({ rawBody: Buffer.from(body), grant: { projectId }, routeOptions: { url } }) as unknown as FastifyRequest;
const entry = { receivedAt: '2026-11-21T10:00:00.000Z', firsts: { log: '0b8e5c2e-9f7a-4b1e-9c57-2f4f0f6c1a10' } };

describe('retry memory', () => {
  it('keys a request by its project, route and body', () => {
    const m = new RetryMemory(60_000);
    const k = m.keyOf(requestLike('p1', '/ingest/logs', '{"logs":[]}'));
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(m.keyOf(requestLike('p1', '/ingest/logs', '{"logs":[]}'))).toBe(k);
    expect(m.keyOf(requestLike('p2', '/ingest/logs', '{"logs":[]}'))).not.toBe(k);
    expect(m.keyOf(requestLike('p1', '/ingest/batch', '{"logs":[]}'))).not.toBe(k);
    expect(m.keyOf(requestLike('p1', '/ingest/logs', '{"logs": []}'))).not.toBe(k);
    expect(m.keyOf({ body: { logs: [] }, grant: { projectId: 'p1' }, routeOptions: { url: '/x' } } as unknown as FastifyRequest)).toBeUndefined();
  });

  it('recalls within the window only, and forgets on demand', () => {
    let now = 0;
    const m = new RetryMemory(1000, 10, () => now);
    m.remember('a', entry);
    expect(m.size).toBe(1);
    now = 999;
    expect(m.recall('a')).toMatchObject(entry);
    now = 1000;
    expect(m.recall('a')).toBeUndefined();
    expect(m.size).toBe(0);
    m.remember('b', entry);
    m.forget('b');
    expect(m.recall('b')).toBeUndefined();
  });

  it('holds at most max requests, the oldest forgotten first, and nothing with a window of 0', () => {
    let now = 0;
    const m = new RetryMemory(60_000, 3, () => now);
    for (const k of ['a', 'b', 'c', 'd']) {
      m.remember(k, entry);
      now++;
    }
    expect(m.size).toBe(3);
    expect(m.recall('a')).toBeUndefined();
    expect(m.recall('d')).toBeDefined();
    const off = new RetryMemory(0);
    off.remember('a', entry);
    expect(off.size).toBe(0);
  });
});
