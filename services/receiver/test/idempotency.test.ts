import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiverHarness, type Harness } from './harness.ts';

// A request with an Idempotency-Key is safe to retry: the retry writes the
// same event ids (so de-duplication by event id makes it invisible); a different body
// under the same key never shares an id; without the header ids are fresh each time.
let h: Harness;
beforeAll(async () => {
  h = await receiverHarness();
});
afterAll(async () => h.close());

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  h.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${h.project.key}`, 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
const idsOf = async (kind: 'log' | 'error', marker: string) => (await h.produced(kind)).filter((e) => JSON.stringify(e.data).includes(marker)).map((e) => e.event_id);

describe('Idempotency-Key', () => {
  it('gives a retried request the same event ids, in order, and a different body other ids', async () => {
    const marker = randomUUID();
    const body = { logs: [0, 1, 2].map((i) => ({ level: 'info', message: `${marker} ${i}`, timestamp: '2026-01-01T00:00:00.000Z' })) };
    const key = randomUUID();
    expect((await post('/ingest/logs', body, { 'idempotency-key': key })).statusCode).toBe(200);
    // The retry arrives gzip-compressed: the ids derive from the body as decoded.
    expect((await post('/ingest/logs', gzipSync(JSON.stringify(body)), { 'idempotency-key': key, 'content-encoding': 'gzip' })).statusCode).toBe(200);
    const ids = await idsOf('log', marker);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(3);
    expect(ids.slice(3)).toEqual(ids.slice(0, 3));

    const other = { logs: [...body.logs, { level: 'info', message: `${marker} 3`, timestamp: '2026-01-01T00:00:00.000Z' }] };
    expect((await post('/ingest/logs', other, { 'idempotency-key': key })).statusCode).toBe(200);
    // Requests may land on different partitions, so the peek's order across requests is not
    // the order they were sent in: count instead. The first body's ids stay at two copies each.
    const after = await idsOf('log', marker);
    expect(after).toHaveLength(10);
    expect(new Set(after).size).toBe(7);
    for (const id of new Set(ids)) expect(after.filter((x) => x === id)).toHaveLength(2);
  });

  it('leaves ids random without the header', async () => {
    const marker = randomUUID();
    const body = { logs: [{ level: 'info', message: marker }] };
    expect((await post('/ingest/logs', body)).statusCode).toBe(200);
    expect((await post('/ingest/logs', body)).statusCode).toBe(200);
    const ids = await idsOf('log', marker);
    expect(new Set(ids).size).toBe(2);
  });

  it('stamps an error with a UUIDv7 key time, so a retry stores the same row', async () => {
    const marker = randomUUID();
    const t = Date.now() - 30_000;
    const key = `${t
      .toString(16)
      .padStart(12, '0')
      .replace(/^(.{8})(.{4})$/, '$1-$2')}-7abc-8def-0123456789ab`;
    const report = { error_message: `boom ${marker}`, stack_trace: 'Error: boom\n    at f (/a.js:1:1)' };
    await post('/ingest/errors', report, { 'idempotency-key': key });
    await post('/ingest/errors', report, { 'idempotency-key': key });
    const events = (await h.produced('error')).filter((e) => e.data.error_message.includes(marker));
    expect(events.map((e) => e.data.timestamp)).toEqual([new Date(t).toISOString(), new Date(t).toISOString()]);
    expect(events[0].event_id).toBe(events[1].event_id);
  });

  it('refuses an unusable key with a 400 naming the header', async () => {
    for (const key of ['', 'a'.repeat(256), 'two words']) {
      const res = await post('/ingest/logs', { logs: [{ level: 'info', message: 'm' }] }, { 'idempotency-key': key });
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(res.json().error.issues[0].path).toEqual(['Idempotency-Key']);
    }
  });
});
