import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiverHarness, type Harness } from './harness.ts';

// Every decoder on the request path answers its failures (an empty gzip body
// used to end the process with an unhandled 'error' from the Gunzip stream).
let h: Harness;
beforeAll(async () => {
  h = await receiverHarness();
});
afterAll(async () => h.close());

const ROUTES = ['/ingest/logs', '/ingest/errors', '/ingest/traces', '/ingest/llm', '/ingest/drain'];
const post = (url: string, payload: string | Buffer | undefined, headers: Record<string, string>) =>
  h.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${h.project.key}`, ...headers }, ...(payload === undefined ? {} : { payload }) });

const valid = gzipSync(Buffer.from('{"logs":[{"level":"info","message":"m"}]}'));
const BROKEN: Record<string, { payload?: string | Buffer; headers: Record<string, string> }> = {
  'gzip, no body, no Content-Type': { headers: { 'content-encoding': 'gzip' } },
  'gzip, Content-Length: 0': { payload: '', headers: { 'content-encoding': 'gzip', 'content-type': 'application/json', 'content-length': '0' } },
  'x-gzip, no body': { headers: { 'content-encoding': 'x-gzip', 'content-type': 'application/json' } },
  'deflate, no body': { headers: { 'content-encoding': 'deflate', 'content-type': 'application/json' } },
  'truncated gzip': { payload: valid.subarray(0, valid.length - 6), headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' } },
  'garbage gzip': { payload: Buffer.from('not gzip at all'), headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' } },
  'gzip with trailing bytes': { payload: Buffer.concat([valid, Buffer.from('trailing')]), headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' } },
  'garbage deflate': { payload: Buffer.from('not deflate'), headers: { 'content-encoding': 'deflate', 'content-type': 'application/json' } },
  'whitespace JSON': { payload: '  \n ', headers: { 'content-type': 'application/json' } },
  'no body at all': { headers: {} },
  'empty with Content-Type': { payload: '', headers: { 'content-type': 'application/json' } },
};

describe('broken bodies on every ingest route', () => {
  for (const [name, b] of Object.entries(BROKEN)) {
    it(`answers 4xx JSON to ${name}, and the process keeps serving`, async () => {
      for (const url of ROUTES) {
        const res = await post(url, b.payload, b.headers);
        expect(res.statusCode, `${url}: ${res.body}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(500);
        expect(() => res.json(), url).not.toThrow();
      }
      await new Promise((r) => setImmediate(r)); // let any stray stream 'error' fire
      expect((await h.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    });
  }

  it('names the encoding when a compressed body is not what it claims', async () => {
    const res = await post('/ingest/logs', Buffer.from('nope'), { 'content-encoding': 'deflate', 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues[0]).toMatchObject({ code: 'custom', message: 'Body is not valid deflate' });
  });

  it('answers an empty drain body with the empty-body 400', async () => {
    const res = await post('/ingest/drain', undefined, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().error.issues[0]).toMatchObject({ message: 'Request body is empty' });
  });
});

describe('compressed bodies that are valid', () => {
  it('accepts deflate as well as gzip and x-gzip', async () => {
    const json = Buffer.from('{"logs":[{"level":"info","message":"deflated"}]}');
    for (const [enc, payload] of [
      ['deflate', deflateSync(json)],
      ['gzip', gzipSync(json)],
      ['x-gzip', gzipSync(json)],
    ] as const) {
      const res = await post('/ingest/logs', payload, { 'content-encoding': enc, 'content-type': 'application/json' });
      expect(res.json(), enc).toEqual({ ok: true, count: 1 });
    }
  });
});

describe('strings the store cannot hold are normalised, not refused or dead-lettered later', () => {
  it('turns lone surrogates into U+FFFD in every string and key on the way to Kafka', async () => {
    const body = String.raw`{"service":"svc \ud83d","logs":[{"level":"info","message":"cut \ud83d","metadata":{"k\udc00":"v\udfff"}}]}`;
    const res = await post('/ingest/logs', body, { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(200);
    const e = (await h.produced('log')).find((x) => x.data.message.startsWith('cut '))!;
    expect(e.data).toMatchObject({ service: 'svc \ufffd', message: 'cut \ufffd', metadata: { 'k\ufffd': 'v\ufffd' } });
    const llm = String.raw`{"model":"m\ud800","provider":"p","operation":"o","input_tokens":1,"output_tokens":1,"latency_ms":1}`;
    expect((await post('/ingest/llm', llm, { 'content-type': 'application/json' })).statusCode).toBe(200);
    expect((await h.produced('llm')).some((x) => x.data.model === 'm\ufffd')).toBe(true);
  });

  it('refuses values beyond the columns with a 400 naming the field', async () => {
    const span = (over: string) => `{"trace_id":"t","span_id":"s","operation":"o","start_time":"2024-01-01T00:00:00Z","duration_ms":1${over}}`;
    const cases: Array<[string, string, string]> = [
      ['/ingest/traces', span(',"duration_ms":1e21'), 'duration_ms'],
      ['/ingest/traces', span(',"start_time":"9999-12-31T23:59:59-01:00"'), 'start_time'],
      ['/ingest/llm', '{"model":"m","provider":"p","operation":"o","input_tokens":1e30,"output_tokens":1,"latency_ms":1}', 'input_tokens'],
      ['/ingest/llm', '{"model":"m","provider":"p","operation":"o","input_tokens":1,"output_tokens":1,"latency_ms":1e20}', 'latency_ms'],
      ['/ingest/llm', '{"model":"m","provider":"p","operation":"o","input_tokens":1,"output_tokens":1,"latency_ms":1,"cost_usd":1e309}', 'cost_usd'],
      ['/ingest/logs', '{"logs":[{"level":"info","message":"m","timestamp":"0000-01-01T00:00:00+01:00"}]}', 'logs.0.timestamp'],
      ['/ingest/logs', `{"logs":[{"level":"info","message":"m","trace_id":"${'a'.repeat(129)}"}]}`, 'logs.0.trace_id'],
    ];
    for (const [url, body, path] of cases) {
      const res = await post(url, body, { 'content-type': 'application/json' });
      expect(res.statusCode, body).toBe(400);
      expect(
        res.json().error.issues.map((i: { path: string[] }) => i.path.join('.')),
        body,
      ).toEqual([path]);
    }
  });
});

describe('CORS', () => {
  it('allows the headers a browser SDK asks for in the preflight, keeping Authorization', async () => {
    const res = await h.app.inject({
      method: 'OPTIONS',
      url: '/ingest/logs',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-deeptracer-sdk',
      },
    });
    expect(res.statusCode).toBe(204);
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase();
    for (const hdr of ['authorization', 'content-type', 'x-deeptracer-sdk']) expect(allowed).toContain(hdr);
  });
});
