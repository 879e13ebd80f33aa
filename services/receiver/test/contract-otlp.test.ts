import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OTLP_RECORDS, OTLP_TYPES } from '@devtrail/otlp';
import { receiverHarness, type Harness } from './harness.ts';
import { int, logsProtobuf, logsRequest, resource, span, SPAN_ID, str, T0_ISO, T0_NS, TRACE_ID, traceProtobuf, traceRequest } from '../../../libs/otlp/test/requests.ts';

// OTLP/HTTP at /v1/logs, /v1/traces, /v1/metrics through the receiver's front door
// (fastify.inject, in-process log): encodings, gzip, partial success, the 5 MB limit,
// and OTLP's error bodies (google.rpc.Status) with the receiver's status codes.
let h: Harness;
beforeAll(async () => {
  h = await receiverHarness();
});
afterAll(async () => h.close());

const PB = 'application/x-protobuf';
const post = (url: string, payload: Buffer | string, type: string, headers: Record<string, string> = {}, key = h.project.key) =>
  h.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}`, 'content-type': type, ...headers }, payload });
const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) => post(url, JSON.stringify(body), 'application/json', headers);
const status = (raw: Buffer) => OTLP_TYPES.status.toObject(OTLP_TYPES.status.decode(raw)) as { code?: number; message?: string };
const logsResponse = (raw: Buffer) => OTLP_TYPES.logsResponse.toObject(OTLP_TYPES.logsResponse.decode(raw), { longs: Number }) as Record<string, any>;
const traceResponse = (raw: Buffer) => OTLP_TYPES.traceResponse.toObject(OTLP_TYPES.traceResponse.decode(raw), { longs: Number }) as Record<string, any>;

/** An AnyValue nested `depth` arrays deep (2 protobuf message levels each). */
const deep = (depth: number): unknown => (depth === 0 ? { stringValue: 'x' } : { arrayValue: { values: [deep(depth - 1)] } });
/** An AnyValue nested `depth` kvlists deep (3 protobuf message levels each). */
const deepKv = (depth: number): unknown => (depth === 0 ? { stringValue: 'x' } : { kvlistValue: { values: [{ key: 'k', value: deepKv(depth - 1) }] } });

describe('POST /v1/logs', () => {
  it('takes protobuf, answers an empty ExportLogsServiceResponse in protobuf, and produces mapped log events', async () => {
    const req = logsRequest(
      [
        {
          timeUnixNano: T0_NS,
          severityNumber: 17,
          severityText: 'ERROR',
          body: { stringValue: 'pb-log' },
          traceId: TRACE_ID,
          spanId: SPAN_ID,
          attributes: [int('order', 7)],
        },
      ],
      resource(str('service.name', 'shop'), str('deployment.environment.name', 'qa'), str('service.version', 'v7')),
    );
    const res = await post('/v1/logs', logsProtobuf(req), PB);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(PB);
    expect(res.rawPayload.length).toBe(0); // partial_success unset: an empty message
    const log = (await h.produced('log')).find((e) => e.data.message === 'pb-log')!;
    expect(log.project_id).toBe(h.project.id);
    expect(log.data).toMatchObject({
      service: 'shop',
      environment: 'qa',
      release: 'v7',
      level: 'error',
      timestamp: T0_ISO,
      trace_id: TRACE_ID,
      span_id: SPAN_ID,
      context: 'orders-logger',
    });
    expect(log.data.metadata).toMatchObject({ order: 7, 'otel.severity_text': 'ERROR' });
  });

  it('takes JSON, gzip or not, and answers {} in JSON', async () => {
    const body = JSON.stringify(logsRequest([{ body: { stringValue: 'json-gz' } }]));
    const zipped = await post('/v1/logs', gzipSync(Buffer.from(body)), 'application/json', { 'content-encoding': 'gzip' });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-type']).toMatch(/^application\/json/);
    expect(zipped.json()).toEqual({});
    const plain = await post('/v1/logs', body.replace('json-gz', 'json-plain'), 'application/json; charset=utf-8');
    expect(plain.json()).toEqual({});
    const pbZipped = await post('/v1/logs', gzipSync(logsProtobuf(logsRequest([{ body: { stringValue: 'pb-gz' } }]))), PB, { 'content-encoding': 'gzip' });
    expect(pbZipped.statusCode).toBe(200);
    const messages = (await h.produced('log')).map((e) => e.data.message);
    expect(messages).toEqual(expect.arrayContaining(['json-gz', 'json-plain', 'pb-gz']));
  });

  it('partial success: a record the native schema refuses is counted and explained, the rest stored (JSON)', async () => {
    const req = logsRequest([
      { body: { stringValue: 'partial-ok-1' } },
      { body: { stringValue: 'partial-too-deep' }, attributes: [{ key: 'deep', value: deep(40) }] },
      { body: { stringValue: 'partial-ok-2' } },
    ]);
    const res = await postJson('/v1/logs', req);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      partialSuccess: { rejectedLogRecords: '1', errorMessage: expect.stringContaining('log record 1: metadata: Nested deeper than 32 levels') },
    });
    const messages = (await h.produced('log')).map((e) => e.data.message);
    expect(messages).toEqual(expect.arrayContaining(['partial-ok-1', 'partial-ok-2']));
    expect(messages).not.toContain('partial-too-deep');
    // Counted where operators look (/metrics).
    expect((await h.receiver.counters.snapshot()).rejected_records.log).toBeGreaterThanOrEqual(1);
  });

  it('partial success in protobuf: a release longer than 128 characters rejects that resource only', async () => {
    const req = logsRequest([{ body: { stringValue: 'long-release' } }, { body: { stringValue: 'long-release-2' } }], resource(str('service.version', 'v'.repeat(129))));
    req.resourceLogs.push(logsRequest([{ body: { stringValue: 'short-release' } }]).resourceLogs[0]);
    const res = await post('/v1/logs', logsProtobuf(req), PB);
    expect(res.statusCode).toBe(200);
    expect(logsResponse(res.rawPayload)).toEqual({ partialSuccess: { rejectedLogRecords: 2, errorMessage: expect.stringContaining('release') } });
    const messages = (await h.produced('log')).map((e) => e.data.message);
    expect(messages).toContain('short-release');
    expect(messages).not.toContain('long-release');
  });

  it('a protobuf body just under 5 MB is stored whole; one byte over the limit is 413 with a Status', async () => {
    const limit = 5 * 1024 * 1024;
    const filler = 'f'.repeat(1000);
    const records = (n: number) => Array.from({ length: n }, (_, i) => ({ body: { stringValue: `big-${i}-${filler}` } }));
    const unit = logsProtobuf(logsRequest(records(1000))).length / 1000;
    let n = Math.floor((limit - 2000) / unit);
    let body = logsProtobuf(logsRequest(records(n)));
    while (body.length > limit) body = logsProtobuf(logsRequest(records(--n)));
    expect(body.length).toBeGreaterThan(limit - 10_000);
    expect(n).toBeGreaterThan(4 * 1000); // several native batches' worth, in one Kafka message
    const res = await post('/v1/logs', body, PB);
    expect(res.statusCode).toBe(200);
    const stored = (await h.produced('log')).filter((e) => e.data.message.startsWith('big-'));
    expect(stored).toHaveLength(n);

    const over = Buffer.concat([body, logsProtobuf(logsRequest(records(3)))]);
    expect(over.length).toBeGreaterThan(limit);
    const tooBig = await post('/v1/logs', over, PB);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.headers['content-type']).toBe(PB);
    expect(status(tooBig.rawPayload).message).toMatch(/too large \(limit 5242880 bytes, counted after decompression\)/);
  });

  it(`takes ${MAX_OTLP_RECORDS} records in one request and refuses one more with 413 (the exporter must send smaller batches)`, async () => {
    const records = (n: number) => Array.from({ length: n }, (_, i) => ({ body: { stringValue: `cap-${i}` } }));
    const ok = await post('/v1/logs', logsProtobuf(logsRequest(records(MAX_OTLP_RECORDS))), PB);
    expect(ok.statusCode).toBe(200);
    const over = await post('/v1/logs', logsProtobuf(logsRequest(records(MAX_OTLP_RECORDS + 1))), PB);
    expect(over.statusCode).toBe(413);
    expect(status(over.rawPayload).message).toBe(
      `more than ${MAX_OTLP_RECORDS} log records in one request: lower the exporter's batch size (OTEL_BSP_/OTEL_BLRP_MAX_EXPORT_BATCH_SIZE, the Collector's send_batch_max_size)`,
    );
    const tooManySpans = await postJson('/v1/traces', traceRequest(Array.from({ length: MAX_OTLP_RECORDS + 1 }, () => span())));
    expect(tooManySpans.statusCode).toBe(413);
  });

  it('a gzip body that inflates past 5 MB is 413', async () => {
    const bomb = gzipSync(logsProtobuf(logsRequest([{ body: { stringValue: '0'.repeat(6 * 1024 * 1024) } }])));
    expect(bomb.length).toBeLessThan(100_000);
    const res = await post('/v1/logs', bomb, PB, { 'content-encoding': 'gzip' });
    expect(res.statusCode).toBe(413);
  });

  it('an empty protobuf body is an empty export: 200 with nothing stored', async () => {
    const before = (await h.produced('log')).length;
    const res = await post('/v1/logs', Buffer.alloc(0), PB);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBe(0);
    expect((await h.produced('log')).length).toBe(before);
  });

  it('an Idempotency-Key gives a retried protobuf request the same event ids, and another body other ids', async () => {
    const body = (m: string) => logsProtobuf(logsRequest([{ body: { stringValue: m } }]));
    const key = { 'idempotency-key': 'otlp-retry-1' };
    for (const b of [body('idem-a'), body('idem-a'), body('idem-b')]) expect((await post('/v1/logs', b, PB, key)).statusCode).toBe(200);
    const produced = await h.produced('log');
    const a = produced.filter((e) => e.data.message === 'idem-a').map((e) => e.event_id);
    const b = produced.filter((e) => e.data.message === 'idem-b').map((e) => e.event_id);
    expect(a).toHaveLength(2);
    expect(a[0]).toBe(a[1]);
    expect(b[0]).not.toBe(a[0]);
  });

  it('bad protobuf is 400 with a protobuf google.rpc.Status naming the problem', async () => {
    const res = await post('/v1/logs', Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]), PB);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe(PB);
    expect(status(res.rawPayload)).toEqual({ code: 3, message: expect.stringMatching(/^not a valid ExportLogsServiceRequest \(protobuf\): /) });
  });

  it('malformed or mistyped JSON is 400 with a JSON Status', async () => {
    const bad = await post('/v1/logs', '{"resourceLogs": [', 'application/json');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 3, message: expect.stringContaining('Malformed JSON body') });
    const wrong = await postJson('/v1/logs', { resourceLogs: [{ scopeLogs: 'nope' }] });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/scopeLogs: array expected/);
  });

  it("values nested past the protobuf decoder's recursion limit (100 messages, as protoc) make the body undecodable: 400", async () => {
    const res = await postJson('/v1/logs', logsRequest([{ body: { stringValue: 'kv' }, attributes: [{ key: 'deep', value: deepKv(40) }] }]));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/max depth exceeded/);
  });

  it('other content types are 415', async () => {
    const res = await post('/v1/logs', 'hello', 'text/plain');
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ code: 3, message: expect.stringContaining('Unsupported Content-Type') });
  });

  it('needs the same key: 401 with a Status in the request encoding', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/v1/logs', headers: { 'content-type': PB }, payload: logsProtobuf(logsRequest([])) });
    expect(res.statusCode).toBe(401);
    expect(status(res.rawPayload)).toEqual({ code: 16, message: 'Missing or invalid API key' });
  });

  it('shares the rate limit with /ingest/* (one request, one count) and answers 429 with Retry-After', async () => {
    const p = await h.newProject('otlp-limited', 2);
    const first = await post(
      '/v1/traces',
      traceProtobuf(
        traceRequest([span({ attributes: [str('gen_ai.request.model', 'm')], events: [{ name: 'exception', attributes: [str('exception.message', 'x')] }] })]),
      ),
      PB,
      {},
      p.key,
    );
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    const native = await h.app.inject({
      method: 'POST',
      url: '/ingest/logs',
      headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
      payload: { logs: [{ level: 'info', message: 'n' }] },
    });
    expect(native.headers['x-ratelimit-remaining']).toBe('0');
    const limited = await post('/v1/logs', logsProtobuf(logsRequest([{ body: { stringValue: 'over' } }])), PB, {}, p.key);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(status(limited.rawPayload)).toEqual({ code: 8, message: 'Rate limit exceeded' });
  });
});

describe('POST /v1/traces', () => {
  it('produces spans, the LLM usage of GenAI spans and the error reports of exception events', async () => {
    const stack = 'TypeError: boom in otlp\n    at handler (/srv/app/src/routes.js:12:3)';
    const spans = [
      span({ name: 'POST /chat', spanId: '1000000000000001' }),
      span({
        name: 'chat gpt-4o-mini',
        parentSpanId: '1000000000000001',
        spanId: '1000000000000002',
        kind: 3,
        attributes: [
          str('gen_ai.operation.name', 'chat'),
          str('gen_ai.provider.name', 'openai'),
          str('gen_ai.request.model', 'gpt-4o-mini'),
          int('gen_ai.usage.input_tokens', 120),
          int('gen_ai.usage.output_tokens', 30),
        ],
        status: { code: 2 },
        events: [
          {
            name: 'exception',
            timeUnixNano: T0_NS,
            attributes: [str('exception.type', 'TypeError'), str('exception.message', 'boom in otlp'), str('exception.stacktrace', stack)],
          },
        ],
      }),
    ];
    const res = await postJson('/v1/traces', traceRequest(spans, resource(str('service.name', 'bot'))));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    const produced = (await h.produced('span')).filter((e) => e.data.trace_id === TRACE_ID && e.data.service === 'bot');
    expect(produced.map((e) => [e.data.operation, e.data.parent_span_id, e.data.status])).toEqual(
      expect.arrayContaining([
        ['POST /chat', '', 'ok'],
        ['chat gpt-4o-mini', '1000000000000001', 'error'],
      ]),
    );
    const llm = (await h.produced('llm')).find((e) => e.data.service === 'bot')!;
    expect(llm.data).toMatchObject({
      model: 'gpt-4o-mini',
      provider: 'openai',
      operation: 'chat',
      input_tokens: 120,
      output_tokens: 30,
      cost_usd: 0,
      latency_ms: 42,
      timestamp: '2026-11-21T10:00:00.165Z',
    });
    expect(llm.data.metadata).toMatchObject({ trace_id: TRACE_ID, span_id: '1000000000000002' });
    const err = (await h.produced('error')).find((e) => e.data.error_message === 'boom in otlp')!;
    expect(err.data).toMatchObject({ service: 'bot', error_type: 'TypeError', severity: 'high', trace_id: TRACE_ID, timestamp: T0_ISO });
    // The native endpoint fingerprints the same content identically.
    const native = await h.app.inject({
      method: 'POST',
      url: '/ingest/errors',
      headers: { authorization: `Bearer ${h.project.key}`, 'content-type': 'application/json' },
      payload: { error_message: 'boom in otlp', stack_trace: stack },
    });
    expect(native.json().fingerprint).toBe(err.data.fingerprint);
  });

  it('partial success: a span the native schema refuses is counted in rejectedSpans (protobuf answer)', async () => {
    const spans = [
      span({ name: 'ok-span', spanId: '2000000000000001' }),
      span({ name: 'backwards', spanId: '2000000000000002', endTimeUnixNano: '1795255100000000000' }),
    ];
    const res = await post('/v1/traces', traceProtobuf(traceRequest(spans)), PB);
    expect(res.statusCode).toBe(200);
    expect(traceResponse(res.rawPayload)).toEqual({
      partialSuccess: { rejectedSpans: 1, errorMessage: expect.stringMatching(/span 1 \("backwards"\): duration_ms: Number must be greater than or equal to 0/) },
    });
    const ops = (await h.produced('span')).map((e) => e.data.operation);
    expect(ops).toContain('ok-span');
    expect(ops).not.toContain('backwards');
  });
});
