import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_TOO_COMPLEX } from '@devtrail/http';
import { receiverHarness, type Harness } from './harness.ts';

// Hostile and malformed input: always a clear 4xx JSON answer, never a 5xx or a hang.
let h: Harness;
beforeAll(async () => {
  h = await receiverHarness();
});
afterAll(async () => h.close());

const inject = (payload: string | Buffer, headers: Record<string, string> = {}, url = '/ingest/logs') =>
  h.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${h.project.key}`, 'content-type': 'application/json', ...headers }, payload });

describe('HTTP edges', () => {
  it('answers 404 JSON for an unknown path and method', async () => {
    for (const [method, url] of [
      ['GET', '/nope'],
      ['POST', '/ingest/unknown'],
      ['GET', '/ingest/logs'],
      ['DELETE', '/health'],
    ] as const) {
      const res = await h.app.inject({ method, url, headers: { authorization: `Bearer ${h.project.key}` } });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatch(/Not found/);
    }
  });

  it('answers 400 JSON for malformed JSON, empty bodies and non-object bodies', async () => {
    for (const bad of ['{"logs": [', 'nul', '']) {
      const res = await inject(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
    for (const payload of ['[]', '"str"', '42', 'null']) {
      const res = await inject(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.issues[0]).toMatchObject({ code: 'invalid_type', expected: 'object' });
    }
  });

  it('answers 415 JSON for a wrong Content-Type or Content-Encoding', async () => {
    const res = await inject('level=info', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toMatch(/Content-Type/);
    const enc = await inject('{}', { 'content-encoding': 'br' });
    expect(enc.statusCode).toBe(415);
  });

  it('answers 413 JSON past 5 MB, raw or decompressed (gzip bomb)', async () => {
    const big = JSON.stringify({ logs: [{ level: 'info', message: 'x'.repeat(5 * 1024 * 1024) }] });
    const raw = await inject(big);
    expect(raw.statusCode).toBe(413);
    expect(raw.json().error).toMatch(/too large/);
    const bomb = gzipSync(Buffer.from(JSON.stringify({ logs: [{ level: 'info', message: '0'.repeat(20 * 1024 * 1024) }] })));
    expect(bomb.length).toBeLessThan(100_000);
    const zipped = await inject(bomb, { 'content-encoding': 'gzip' });
    expect(zipped.statusCode).toBe(413);
  });

  it('accepts gzip bodies and refuses corrupt gzip with 400', async () => {
    const ok = await inject(gzipSync(Buffer.from(JSON.stringify({ logs: [{ level: 'info', message: 'zipped' }] }))), { 'content-encoding': 'gzip' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true, count: 1 });
    const bad = await inject(Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses metadata nested deeper than 32 levels with 400', async () => {
    const deep = '{"d":'.repeat(5000) + '{}' + '}'.repeat(5000);
    const res = await inject(`{"logs":[{"level":"info","message":"deep","metadata":${deep}}]}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues[0]).toMatchObject({ code: 'custom', path: ['logs', 0, 'metadata'] });
    // A million nested arrays are past the JSON limits before anything is parsed (libs/http json-shape.ts).
    const array = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    const arr = await inject(`{"logs":[{"level":"info","message":"deep","metadata":{"a":${array}}}]}`);
    expect(arr.statusCode).toBe(413);
    expect(arr.json()).toEqual({ error: JSON_TOO_COMPLEX.containers });
  });

  it('refuses prototype-poisoning keys with 400', async () => {
    const res = await inject('{"logs":[{"level":"info","message":"x"}],"__proto__":{"polluted":true}}');
    expect(res.statusCode).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('carries hostile strings through untouched', async () => {
    const hostile = `<script>alert(1)</script> '; DROP TABLE logs; -- \u0000 \u202e ${'\ud83d\ude00'} {{x}} \${y}`;
    const res = await inject(JSON.stringify({ service: hostile, logs: [{ level: 'info', message: hostile, metadata: { [hostile]: hostile } }] }));
    expect(res.statusCode).toBe(200);
    const e = (await h.produced('log')).find((x) => x.data.service === hostile)!;
    expect(e.data.message).toBe(hostile);
    expect(e.data.metadata).toEqual({ [hostile]: hostile });
  });

  it('never answers 5xx to random garbage bodies', async () => {
    const seeds = ['{', '}', '[', '{"logs":{}}', '{"logs":[null]}', '{"logs":[1,2]}', '\u0000\u0001', '{"logs":[{"level":null,"message":{}}]}', 'true', '1e999'];
    for (const url of ['/ingest/logs', '/ingest/errors', '/ingest/traces', '/ingest/llm', '/ingest/drain']) {
      for (const s of seeds) {
        const res = await inject(s, {}, url);
        expect(res.statusCode, `${url} ${s}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${url} ${s}`).toBeLessThan(500);
        expect(() => res.json()).not.toThrow();
      }
    }
  });
});

describe('content types', () => {
  it('answers 415 to text/plain on JSON endpoints', async () => {
    const res = await inject('{"logs":[]}', { 'content-type': 'text/plain' });
    expect(res.statusCode).toBe(415);
  });

  it('names the configured body limit in the 413 answer', async () => {
    const res = await inject(JSON.stringify({ logs: [{ level: 'info', message: 'x'.repeat(6 * 1024 * 1024) }] }));
    expect(res.json().error).toBe(`Request body too large (limit ${5 * 1024 * 1024} bytes, counted after decompression)`);
  });
});
