import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createDeflate, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedProcess, type EmbeddedProcess } from '../../../test/support/embedded-process.ts';

// No body takes the receiver down or stalls it. `npm start` runs as its own process; the
// worst bodies of every route and encoding (the cheapest to send and the dearest to refuse)
// are sent to it while /health is timed beside them from this process. They used to block the
// event loop for 0.5 s to over a minute each; now each is refused (400 or 413) after a bounded
// look at it. The bound asserted is generous (this machine is shared); the point is that no
// body stalls the process for long. A body that misses the bound is sent once more and the better
// of the two counts: a stall the body causes shows both times, a neighbour's load rarely does. A gzip bomb's 413 must also end its decoder's work: the
// process's CPU time after the answer is measured.

const LIMIT = 5 * 1024 * 1024;
const FIT = LIMIT - 64;
const HEALTH_BOUND_MS = 300;

function varint(n: number): Buffer {
  const b: number[] = [];
  for (; n > 127; n = Math.floor(n / 128)) b.push((n & 127) | 128);
  b.push(n);
  return Buffer.from(b);
}
/** A length-delimited protobuf field. */
const field = (tag: number, body: Buffer) => Buffer.concat([varint((tag << 3) | 2), varint(body.length), body]);
/** `bytes` of empty messages in field `tag`, two bytes each. */
const empties = (tag: number, bytes = FIT) => Buffer.alloc(Math.floor(bytes / 2) * 2).fill(Buffer.from([(tag << 3) | 2, 0]));
const repeated = (item: string, separator = ',', bytes = FIT) =>
  Array(Math.floor(bytes / (item.length + separator.length)))
    .fill(item)
    .join(separator);
const manyKeys = (bytes = FIT) => Array.from({ length: Math.floor(bytes / 12) }, (_, i) => `"${i.toString(36).padStart(5, '0')}":0`).join(',');

const PB = 'application/x-protobuf';
const JSON_TYPE = 'application/json';
const WORST: Array<{ name: string; path: string; type: string; body: () => Buffer }> = [
  { name: 'logs: 1.7M empty entries', path: '/ingest/logs', type: JSON_TYPE, body: () => Buffer.from(`{"logs":[${repeated('{}')}]}`) },
  { name: 'logs: 2.6M numbers', path: '/ingest/logs', type: JSON_TYPE, body: () => Buffer.from(`{"logs":[${repeated('0')}]}`) },
  {
    name: 'logs: one metadata object of 400k keys',
    path: '/ingest/logs',
    type: JSON_TYPE,
    body: () => Buffer.from(`{"logs":[{"level":"info","message":"m","metadata":{${manyKeys()}}}]}`),
  },
  {
    name: 'errors: 1.7M empty breadcrumbs',
    path: '/ingest/errors',
    type: JSON_TYPE,
    body: () => Buffer.from(`{"error_message":"x","stack_trace":"y","breadcrumbs":[${repeated('{}')}]}`),
  },
  {
    name: 'errors: context of 400k keys',
    path: '/ingest/errors',
    type: JSON_TYPE,
    body: () => Buffer.from(`{"error_message":"x","stack_trace":"y","context":{${manyKeys()}}}`),
  },
  { name: 'traces: 2.6M numbers', path: '/ingest/traces', type: JSON_TYPE, body: () => Buffer.from(`[${repeated('0')}]`) },
  { name: 'llm: 2.6M numbers', path: '/ingest/llm', type: JSON_TYPE, body: () => Buffer.from(`[${repeated('0')}]`) },
  { name: 'drain: 1.7M empty entries', path: '/ingest/drain', type: JSON_TYPE, body: () => Buffer.from(`[${repeated('{}')}]`) },
  { name: 'drain: 1.7M NDJSON lines', path: '/ingest/drain', type: 'application/x-ndjson', body: () => Buffer.from(repeated('{}', '\n')) },
  { name: 'OTLP logs: 2.6M empty records', path: '/v1/logs', type: PB, body: () => field(1, field(2, empties(2))) },
  { name: 'OTLP logs: one record, 2.6M attributes', path: '/v1/logs', type: PB, body: () => field(1, field(2, field(2, empties(6)))) },
  { name: 'OTLP logs: 2.6M empty resources', path: '/v1/logs', type: PB, body: () => empties(1) },
  { name: 'OTLP traces: 2.6M empty spans', path: '/v1/traces', type: PB, body: () => field(1, field(2, empties(2))) },
  { name: 'OTLP traces: one span, 2.6M events', path: '/v1/traces', type: PB, body: () => field(1, field(2, field(2, empties(11)))) },
  { name: 'OTLP traces: 2.6M empty resources', path: '/v1/traces', type: PB, body: () => empties(1) },
  {
    name: 'OTLP/JSON logs: 1.7M empty records',
    path: '/v1/logs',
    type: JSON_TYPE,
    body: () => Buffer.from(`{"resourceLogs":[{"scopeLogs":[{"logRecords":[${repeated('{}')}]}]}]}`),
  },
  { name: 'OTLP/JSON traces: 1.7M empty resources', path: '/v1/traces', type: JSON_TYPE, body: () => Buffer.from(`{"resourceSpans":[${repeated('{}')}]}`) },
];
const ENCODINGS: Record<string, (b: Buffer) => Buffer> = { identity: (b) => b, gzip: (b) => gzipSync(b), deflate: (b) => deflateSync(b) };

let dt: EmbeddedProcess;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
beforeAll(async () => {
  dt = await startEmbeddedProcess();
});
afterAll(async () => {
  agent.destroy();
  await dt?.close();
});

function send(path: string, type: string, body: Buffer, encoding: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${dt.project.key}`, 'content-type': type, 'content-length': body.length };
    if (encoding !== 'identity') headers['content-encoding'] = encoding;
    const req = request(`${dt.url}${path}`, { method: 'POST', headers }, async (res) => resolve({ status: res.statusCode!, body: (await buffer(res)).toString() }));
    req.on('error', reject);
    req.end(body);
  });
}

const health = () =>
  new Promise<number>((resolve, reject) => {
    const started = performance.now();
    const req = request(`${dt.url}/health`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - started));
    });
    req.on('error', reject);
    req.end();
  });

/** The slowest /health answer while `during` runs and for `tailMs` after it. */
async function worstHealth(during: Promise<unknown>, tailMs = 200): Promise<number> {
  let until = Number.POSITIVE_INFINITY;
  void during.finally(() => (until = performance.now() + tailMs));
  let worst = 0;
  while (performance.now() < until) {
    worst = Math.max(worst, await health());
    await new Promise((r) => setTimeout(r, 2));
  }
  return worst;
}

/** User plus system CPU time of the process so far, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

describe('the worst bodies of every route and encoding', () => {
  it(`are refused while /health keeps answering within ${HEALTH_BOUND_MS} ms`, { timeout: 600_000 }, async () => {
    const results: string[] = [];
    const slow: string[] = [];
    for (const w of WORST) {
      const raw = w.body();
      for (const [encoding, encode] of Object.entries(ENCODINGS)) {
        const payload = encode(raw);
        const tries: number[] = [];
        let line = '';
        // Sent again only when the first try missed the bound: the better of two counts.
        for (let attempt = 0; attempt < 2 && !(tries.length > 0 && Math.min(...tries) <= HEALTH_BOUND_MS); attempt++) {
          const answer = send(w.path, w.type, payload, encoding);
          tries.push(await worstHealth(answer));
          const { status, body } = await answer;
          line = `${w.name} (${encoding}, ${payload.length} B): ${status}, /health at worst ${tries.map((t) => t.toFixed(0)).join(' and ')} ms`;
          expect([400, 413], `${line}: ${body.slice(0, 200)}`).toContain(status);
        }
        results.push(line);
        if (Math.min(...tries) > HEALTH_BOUND_MS) slow.push(line);
      }
    }
    console.log(results.join('\n'));
    expect(slow).toEqual([]);
    expect((await fetch(`${dt.url}/health/ready`)).status).toBe(200);
  });
});

/** gzip members of 100 MB of zeros, concatenated (gunzip reads them as one stream): about 100 MB per 100 KB. */
function gzipBomb(maxBytes: number): Buffer {
  const member = gzipSync(Buffer.alloc(100 * 1024 * 1024), { level: 9 });
  return Buffer.concat(Array(Math.floor(maxBytes / member.length)).fill(member));
}

async function deflateBomb(inflatedBytes: number): Promise<Buffer> {
  const chunk = Buffer.alloc(16 * 1024 * 1024);
  const zeros = Readable.from(
    (function* () {
      for (let n = 0; n < inflatedBytes; n += chunk.length) yield chunk;
    })(),
  );
  return buffer(zeros.pipe(createDeflate({ level: 9 })));
}

describe('a compression bomb', () => {
  it('is refused at the body limit and costs no CPU after its 413', { timeout: 300_000 }, async () => {
    const bombs: Array<[string, Buffer]> = [
      ['gzip', gzipBomb(LIMIT - 1024)],
      ['deflate', await deflateBomb(2 * 1024 * 1024 * 1024)],
    ];
    const pid = dt.child.pid!;
    const after: string[] = [];
    for (const [encoding, bomb] of bombs) {
      for (const path of ['/ingest/logs', '/v1/logs']) {
        const { status, body } = await send(path, JSON_TYPE, bomb, encoding);
        expect(status, body).toBe(413);
        expect(JSON.parse(body).error ?? JSON.parse(body).message).toMatch(/too large/);
        const atAnswer = cpuMs(pid);
        await new Promise((r) => setTimeout(r, 2000));
        const spent = cpuMs(pid) - atAnswer;
        after.push(`${encoding} bomb (${bomb.length} B) to ${path}: ${spent} ms of CPU in the 2 s after its 413`);
      }
    }
    console.log(after.join('\n'));
    // Inflating on would take seconds of CPU. The embedded process is not idle (its consumers poll,
    // its evaluators run, a 5 MB body's buffers are collected): up to ~250 ms in 2 s was seen.
    for (const line of after) expect(Number(/: (\d+) ms/.exec(line)![1]), line).toBeLessThan(600);
  });
});
