import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeMessage, HEADERS } from '@devtrail/contract';
import { dataPolicyRepo } from '@devtrail/relational-store';
import type { ConsumedMessage } from '@devtrail/message-log';
import { runs, SEED } from '../../../test/support/property.ts';
import { receiverHarness, type Harness } from './harness.ts';

// A log request goes to Kafka as it was sent (message version 3, docs/topics.md) only when the
// checks and the scrubber leave it exactly as sent; anything else is version 2, scrubbed. A
// request with a secret is never forwarded as sent, wherever the secret hides: under a secret
// key, in a message, in a field the events leave out, in the first of two keys of one name.

let h: Harness;
let group = 0;
beforeAll(async () => {
  h = await receiverHarness();
});
afterAll(async () => h?.close());

/** Every message on the logs topic so far. */
async function messages(): Promise<ConsumedMessage[]> {
  const topic = h.adapters.topics.of('log');
  const groupId = `as-sent-${group++}`;
  const total = (await h.adapters.messageLog.lag(groupId, [topic])).reduce((n, l) => n + Number(l.end) - Number(l.committed), 0);
  const out: ConsumedMessage[] = [];
  const c = h.adapters.messageLog.createConsumer({ groupId, topics: [topic] });
  await c.run(async (batch) => void out.push(...batch));
  const deadline = Date.now() + 30_000;
  while (out.length < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await c.stop();
  return out;
}

const post = (key: string, body: string | Buffer, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: '/ingest/logs', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, payload: body });

/** The message a request with this marker became. */
async function messageOf(marker: string): Promise<ConsumedMessage> {
  const found = (await messages()).filter((m) => decodeMessage('log', m).events.some((e) => JSON.stringify(e.data).includes(marker)));
  expect(found).toHaveLength(1);
  return found[0];
}

const version = (m: ConsumedMessage) => m.headers[HEADERS.schemaVersion];
const TS = '2026-11-21T10:00:00.000Z';

describe('a log request as sent (version 3)', () => {
  it('goes as its bytes, with its facts in the headers, when nothing changes it', async () => {
    const marker = randomUUID();
    const text = JSON.stringify({
      service: 'shop',
      logs: [
        { level: 'info', message: `${marker} a`, timestamp: TS, metadata: { order: 42 } },
        { level: 'warn', message: `${marker} b` },
      ],
    });
    const res = await post(h.project.key, text);
    expect(res.json()).toEqual({ ok: true, count: 2 });
    const m = await messageOf(marker);
    expect(m.value!.toString()).toBe(text);
    expect(m.headers).toMatchObject({
      [HEADERS.schemaVersion]: '3',
      [HEADERS.kind]: 'log',
      [HEADERS.projectId]: h.project.id,
      [HEADERS.eventCount]: '2',
      [HEADERS.retentionDays]: '30',
      [HEADERS.contentType]: 'application/json',
    });
    expect(m.headers[HEADERS.scrub]).toMatch(/^unchanged rules=[0-9a-f]{16}$/);
    const events = decodeMessage('log', m).events;
    expect(m.key).toBe(events[0].event_id);
    expect(events.map((e) => e.data)).toMatchObject([
      { service: 'shop', environment: 'production', message: `${marker} a`, timestamp: TS, metadata: { order: 42 } },
      { service: 'shop', message: `${marker} b`, timestamp: m.headers[HEADERS.receivedAt] },
    ]);
  });

  it('goes as the decompressed bytes of a gzip request', async () => {
    const marker = randomUUID();
    const text = JSON.stringify({ logs: [{ level: 'info', message: marker }] });
    expect((await post(h.project.key, gzipSync(text), { 'content-encoding': 'gzip' })).statusCode).toBe(200);
    const m = await messageOf(marker);
    expect([version(m), m.value!.toString()]).toEqual(['3', text]);
  });

  it('is version 2, scrubbed, when scrubbing changes it, when a field is left out or normalised, or when the bytes say more than the parse', async () => {
    const cases: Array<[string, (marker: string) => string]> = [
      ['a secret key', (x) => JSON.stringify({ logs: [{ level: 'info', message: x, metadata: { password: 'hunter2' } }] })],
      ['a card number', (x) => JSON.stringify({ logs: [{ level: 'info', message: `${x} paid with 4111 1111 1111 1111` }] })],
      ['a field the events leave out', (x) => JSON.stringify({ logs: [{ level: 'info', message: x, note: { password: 'hunter2' } }] })],
      ['a timestamp not in UTC', (x) => JSON.stringify({ logs: [{ level: 'info', message: x, timestamp: '2026-11-21T12:00:00.000+02:00' }] })],
      ['a key written twice', (x) => `{"logs":[{"level":"info","message":"${x}","metadata":{"token":"hunter2","token":null}}]}`],
      ['a message written twice', (x) => `{"logs":[{"level":"info","message":"4111 1111 1111 1111","message":"${x}"}]}`],
      ['an escaped lone surrogate', (x) => `{"logs":[{"level":"info","message":"${x} \\ud800"}]}`],
      ['a key escaped', (x) => `{"logs":[{"level":"info","message":"${x}","metadata":{"pass\\u0077ord":"hunter2"}}]}`],
    ];
    for (const [what, body] of cases) {
      const marker = randomUUID();
      expect((await post(h.project.key, body(marker))).statusCode, what).toBe(200);
      const m = await messageOf(marker);
      expect(version(m), what).toBe('2');
      expect(m.value!.toString(), what).not.toMatch(/hunter2|4111 1111/);
    }
    // Bytes that are not UTF-8: the parser replaced some.
    const marker = randomUUID();
    const bytes = Buffer.concat([Buffer.from(`{"logs":[{"level":"info","message":"${marker} `), Buffer.from([0xff]), Buffer.from('"}]}')]);
    expect((await post(h.project.key, bytes)).statusCode).toBe(200);
    expect(version(await messageOf(marker))).toBe('2');
  });

  it("follows the project's own rules: certified under them, version 2 where they match", async () => {
    const own = await h.newProject('own-rules');
    await dataPolicyRepo(h.adapters.relational).set(own.id, { scrubbing: { rules: [{ match: 'regex', pattern: 'secret_[a-z]+' }] } });
    const clean = randomUUID();
    const dirty = randomUUID();
    await post(own.key, JSON.stringify({ logs: [{ level: 'info', message: clean }] }));
    await post(own.key, JSON.stringify({ logs: [{ level: 'info', message: `${dirty} secret_abc` }] }));
    const a = await messageOf(clean);
    const b = await messageOf(dirty);
    expect(version(a)).toBe('3');
    expect(a.headers[HEADERS.scrub]).not.toBe((await messageOf((await firstDefault()).marker)).headers[HEADERS.scrub]);
    expect(version(b)).toBe('2');
    expect(decodeMessage('log', b).events[0].data.message).toBe(`${dirty} [Filtered]`);

    // A project that scrubs nothing: its requests go as sent whatever they hold.
    const none = await h.newProject('no-scrubbing');
    await dataPolicyRepo(h.adapters.relational).set(none.id, { scrubbing: { defaults: false } });
    const plain = randomUUID();
    await post(none.key, JSON.stringify({ logs: [{ level: 'info', message: plain, metadata: { password: 'p' } }] }));
    const c = await messageOf(plain);
    expect([version(c), c.headers[HEADERS.scrub]]).toEqual(['3', 'unchanged rules=none']);
  });

  it('is version 2 when sampling left events out', async () => {
    const sampled = await h.newProject('sampled');
    await dataPolicyRepo(h.adapters.relational).set(sampled.id, { sampling: { logs: 0.5 } });
    const marker = randomUUID();
    // 40 traces: some kept, some not, whatever the hash.
    const logs = Array.from({ length: 40 }, (_, i) => ({ level: 'info', message: `${marker} ${i}`, trace_id: `${i}`.padStart(32, 'a') }));
    expect((await post(sampled.key, JSON.stringify({ logs }))).statusCode).toBe(200);
    const kept = (await messages()).filter((m) => decodeMessage('log', m).events.some((e) => e.data.message.startsWith(marker)));
    expect(kept.map(version)).toEqual(['2']);
    expect(decodeMessage('log', kept[0]).events.length).toBeLessThan(40);
  });

  it('keeps an Idempotency-Key retry on the same ids, each one listed', async () => {
    const marker = randomUUID();
    const text = JSON.stringify({ logs: [0, 1, 2].map((i) => ({ level: 'info', message: `${marker} ${i}`, timestamp: TS })) });
    const key = randomUUID();
    await post(h.project.key, text, { 'idempotency-key': key });
    await post(h.project.key, text, { 'idempotency-key': key });
    const copies = (await messages()).filter((m) => m.value!.toString() === text);
    expect(copies.map(version)).toEqual(['3', '3']);
    expect(copies[0].headers[HEADERS.eventIds].split(',')).toHaveLength(3);
    expect(copies[1].headers[HEADERS.eventIds]).toBe(copies[0].headers[HEADERS.eventIds]);
  });

  it('never forwards a secret as sent, wherever it hides in a generated request', async () => {
    const SECRET = 'hunter2';
    const CARD = '4111111111111111';
    const hide = fc.constantFrom(
      (m: string) => `{"level":"info","message":"${m}"}`,
      (m: string) => `{"level":"info","message":"${m}","metadata":{"password":"${SECRET}"}}`,
      (m: string) => `{"level":"info","message":"${m}","metadata":{"a":[{"api_key":"${SECRET}"}]}}`,
      (m: string) => `{"level":"info","message":"${m}","metadata":{"headers":[["Authorization","${SECRET}"]]}}`,
      (m: string) => `{"level":"info","message":"${m} card ${CARD}"}`,
      (m: string) => `{"level":"info","message":"${m}","extra":"${SECRET}"}`,
      (m: string) => `{"level":"info","message":"${m}","metadata":{"note":"${SECRET}","note":"ok"}}`,
      (m: string) => `{"level":"info","message":"${CARD}","message":"${m}"}`,
      (m: string) => `{"level":"info","message":"${m}","timestamp":"2026-11-21T10:00:00Z","metadata":{"cookie":"${SECRET}"}}`,
      (m: string) => `{"level":"info","message":"${m}","metadata":{"x":{"y":{"secret":{"z":"${SECRET}"}}}}}`,
      (m: string) => `{"level":"info","message":"${m}","metadata":{"v":"4111\\u00201111\\u00201111\\u00201111"}}`,
    );
    const clean = (m: string) => `{"level":"info","message":"${m}","timestamp":"2026-11-21T10:00:00.000Z","metadata":{"n":1}}`;
    // Half the requests clean (they go as sent), half with secrets hidden among clean entries.
    const body = fc.oneof(fc.array(fc.constant(clean), { minLength: 1, maxLength: 3 }), fc.array(fc.oneof(fc.constant(clean), hide), { minLength: 1, maxLength: 4 }));
    const bodies = fc.sample(body, { numRuns: runs(120), seed: SEED });
    const markers: Array<{ marker: string; secret: boolean }> = [];
    for (const entries of bodies) {
      const marker = randomUUID();
      const logs = entries.map((f, i) => f(`${marker} ${i}`));
      const text = `{"service":"gen","logs":[${logs.join(',')}]}`;
      expect((await post(h.project.key, text)).statusCode, text).toBe(200);
      markers.push({ marker, secret: text.includes(SECRET) || text.includes(CARD) || text.includes('\\u0020') });
    }
    const all = await messages();
    let asSent = 0;
    for (const { marker, secret } of markers) {
      const m = all.find((x) => x.value!.toString().includes(marker))!;
      expect(m, marker).toBeDefined();
      if (version(m) === '3') asSent++;
      expect(version(m) === '3' && secret, `forwarded a secret as sent: ${m.value}`).toBe(false);
      expect(m.value!.toString()).not.toMatch(/hunter2|4111111111111111/);
    }
    expect(asSent).toBeGreaterThan(0);
  });
});

/** A request of the default project, for its certificate. */
async function firstDefault() {
  const marker = randomUUID();
  await post(h.project.key, JSON.stringify({ logs: [{ level: 'info', message: marker }] }));
  return { marker };
}
