import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createHttpApp, LINGER_MS } from '../src/http-app.ts';

// A body refused while it is still being sent (a 6 MB body past the 5 MB limit) reaches Node's
// fetch as its answer, not as `fetch failed`: the rest of the body is read and dropped before the
// connection closes (docs/api.md#errors). The body is sent slowly, so the answer always comes
// while the client is still writing (on a busy machine, one 6 MB post in six hit that).
const LIMIT = 5_000_000;
let app: FastifyInstance;
let base = '';
beforeAll(async () => {
  app = await createHttpApp(pino({ level: 'silent' }), LIMIT);
  app.post('/ingest/logs', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(() => app?.close());

function slowBody(total: number, chunk = 200_000, delayMs = 5): ReadableStream<Uint8Array> {
  let left = total;
  return new ReadableStream({
    async pull(c) {
      if (left <= 0) return c.close();
      await new Promise((r) => setTimeout(r, delayMs));
      const n = Math.min(chunk, left);
      left -= n;
      c.enqueue(new Uint8Array(n).fill(0x20));
    },
  });
}

const post = (headers: Record<string, string>, body: ReadableStream<Uint8Array>) =>
  fetch(`${base}/ingest/logs`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, duplex: 'half' } as RequestInit);

describe('a refused body', () => {
  it('6 MB with Content-Length: every one of 6 posts gets its 413, none fails', async () => {
    for (let i = 0; i < 6; i++) {
      const r = await post({ 'content-length': '6000000' }, slowBody(6_000_000));
      expect(r.status).toBe(413);
      expect((await r.json()).error).toMatch(/^Request body too large/);
    }
  });

  it('6 MB chunked: 413 as well', async () => {
    const r = await post({}, slowBody(6_000_000));
    expect(r.status).toBe(413);
    await r.text();
  });

  it(`a body that never ends is read for at most ${LINGER_MS} ms after the answer, then the connection is closed`, async () => {
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(base).port) });
    await new Promise((r) => socket.once('connect', r));
    socket.write('POST /ingest/logs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\r\n');
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString();
    });
    const writing = setInterval(() => socket.write(Buffer.alloc(16_384, 0x20)), 5);
    const started = Date.now();
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.once('error', () => resolve());
    });
    clearInterval(writing);
    const closedAfter = Date.now() - started;
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(closedAfter).toBeLessThan(LINGER_MS + 3000);
  }, 20_000);

  it('a refused body read to its end leaves the connection open: the next request on it is answered', async () => {
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(base).port) });
    await new Promise((r) => socket.once('connect', r));
    let answers = '';
    socket.on('data', (d) => {
      answers += d.toString();
    });
    let closed = false;
    socket.once('close', () => {
      closed = true;
    });
    socket.write('POST /ingest/logs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 6000000\r\n\r\n');
    for (let sent = 0; sent < 6_000_000; sent += 500_000) {
      socket.write(Buffer.alloc(500_000, 0x20));
      await new Promise((r) => setTimeout(r, 5));
    }
    await expect.poll(() => answers, { timeout: 10_000 }).toMatch(/^HTTP\/1\.1 413/);
    expect(answers).not.toMatch(/connection: close/i); // a client may reuse it: it must stay usable
    socket.write('POST /ingest/logs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}');
    await expect.poll(() => answers, { timeout: 10_000 }).toMatch(/HTTP\/1\.1 200[\s\S]*\{"ok":true\}/);
    expect(closed).toBe(false);
    socket.destroy();
  }, 20_000);
});
