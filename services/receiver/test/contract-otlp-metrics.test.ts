import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OTLP_RECORDS, OTLP_TYPES } from '@devtrail/otlp';
import { receiverHarness, type Harness } from './harness.ts';
import { metricsProtobuf, metricsRequest, resource, SPAN_ID, str, T0_ISO, T0_NS, TRACE_ID } from '../../../libs/otlp/test/requests.ts';

// OTLP/HTTP metrics at /v1/metrics through the receiver's front door (fastify.inject,
// in-process log): each point type hand-written as an exporter sends it, both encodings, gzip,
// partial success, bad bodies and the request limits (docs/otlp.md#metrics).
let h: Harness;
beforeAll(async () => {
  h = await receiverHarness();
});
afterAll(async () => h.close());

const PB = 'application/x-protobuf';
const post = (payload: Buffer | string, type: string, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: '/v1/metrics', headers: { authorization: `Bearer ${h.project.key}`, 'content-type': type, ...headers }, payload });
const postJson = (body: unknown) => post(JSON.stringify(body), 'application/json');
const metricsResponse = (raw: Buffer) => OTLP_TYPES.metricsResponse.toObject(OTLP_TYPES.metricsResponse.decode(raw), { longs: Number }) as Record<string, any>;
const status = (raw: Buffer) => OTLP_TYPES.status.toObject(OTLP_TYPES.status.decode(raw)) as { code?: number; message?: string };
const points = async (name: string) => (await h.produced('metric')).filter((e) => e.data.metric === name).map((e) => e.data);

/** 2026-11-21T10:00:00.123Z minus one minute, in ns. */
const START_NS = (BigInt(T0_NS) - 60_000_000_000n).toString();
const START_ISO = '2026-11-21T09:59:00.123Z';
const CUMULATIVE = 2;
const DELTA = 1;
const attrs = [str('route', '/pay'), { key: 'code', value: { intValue: '200' } }];

const gauge = (name: string) => ({ name, unit: '1', description: 'queued jobs', gauge: { dataPoints: [{ timeUnixNano: T0_NS, asDouble: 2.5, attributes: attrs }] } });
const counter = (name: string, value: string, temporality = CUMULATIVE) => ({
  name,
  unit: '{request}',
  sum: {
    aggregationTemporality: temporality,
    isMonotonic: true,
    dataPoints: [
      {
        startTimeUnixNano: START_NS,
        timeUnixNano: T0_NS,
        asInt: value,
        attributes: attrs,
        exemplars: [{ timeUnixNano: T0_NS, asInt: '1', traceId: TRACE_ID, spanId: SPAN_ID, filteredAttributes: [str('user', 'u1')] }],
      },
    ],
  },
});
const histogram = (name: string) => ({
  name,
  unit: 'ms',
  histogram: {
    aggregationTemporality: CUMULATIVE,
    dataPoints: [
      { startTimeUnixNano: START_NS, timeUnixNano: T0_NS, count: '6', sum: 321.5, min: 1, max: 200, explicitBounds: [10, 100], bucketCounts: ['1', '3', '2'] },
    ],
  },
});
const exponential = (name: string) => ({
  name,
  unit: 'ms',
  exponentialHistogram: {
    aggregationTemporality: DELTA,
    dataPoints: [
      {
        startTimeUnixNano: START_NS,
        timeUnixNano: T0_NS,
        count: '7',
        sum: 40,
        scale: 2,
        zeroCount: '1',
        positive: { offset: 3, bucketCounts: ['2', '0', '3'] },
        negative: { offset: -1, bucketCounts: ['1'] },
        min: -0.8,
        max: 3.3,
      },
    ],
  },
});
const summary = (name: string) => ({
  name,
  summary: {
    dataPoints: [
      {
        timeUnixNano: T0_NS,
        count: '10',
        sum: 55,
        quantileValues: [
          { quantile: 0.5, value: 5 },
          { quantile: 0.99, value: 9.9 },
        ],
      },
    ],
  },
});

describe('POST /v1/metrics: each point type', () => {
  for (const encoding of ['protobuf', 'json'] as const) {
    it(`${encoding}: a gauge, a counter, a histogram, an exponential histogram and a summary, with resource, scope, attributes and exemplars`, async () => {
      const p = `${encoding}.`;
      const req = metricsRequest(
        [gauge(`${p}queue`), counter(`${p}requests`, '42'), histogram(`${p}latency`), exponential(`${p}exp`), summary(`${p}summary`)],
        resource(str('service.name', 'shop'), str('deployment.environment.name', 'qa'), str('service.version', 'v7'), str('host.name', 'h1')),
      );
      const res = encoding === 'protobuf' ? await post(metricsProtobuf(req), PB) : await postJson(req);
      expect(res.statusCode).toBe(200);
      if (encoding === 'protobuf') expect(res.rawPayload.length).toBe(0);
      else expect(res.json()).toEqual({});
      const shared = { service: 'shop', environment: 'qa', release: 'v7', resource: { 'host.name': 'h1' }, scope: '@acme/meter', scope_version: '2.0.0', time: T0_ISO };
      expect(await points(`${p}queue`)).toEqual([
        expect.objectContaining({
          ...shared,
          type: 'gauge',
          unit: '1',
          description: 'queued jobs',
          value: 2.5,
          temporality: 'unspecified',
          start_time: '1970-01-01T00:00:00.000Z',
        }),
      ]);
      const [sum] = await points(`${p}requests`);
      expect(sum).toMatchObject({
        ...shared,
        type: 'sum',
        temporality: 'cumulative',
        monotonic: true,
        value: 42,
        start_time: START_ISO,
        attributes: { code: 200, route: '/pay' },
      });
      expect(Object.keys(sum.attributes)).toEqual(['code', 'route']); // a series' attributes in one order
      expect(sum.exemplars).toEqual([{ time: T0_ISO, value: 1, trace_id: TRACE_ID, span_id: SPAN_ID, attributes: { user: 'u1' } }]);
      expect(await points(`${p}latency`)).toEqual([
        expect.objectContaining({
          ...shared,
          type: 'histogram',
          temporality: 'cumulative',
          count: 6,
          sum: 321.5,
          min: 1,
          max: 200,
          bounds: [10, 100],
          bucket_counts: [1, 3, 2],
        }),
      ]);
      expect(await points(`${p}exp`)).toEqual([
        expect.objectContaining({
          type: 'exponential_histogram',
          temporality: 'delta',
          count: 7,
          sum: 40,
          scale: 2,
          zero_count: 1,
          positive_offset: 3,
          positive_counts: [2, 0, 3],
          negative_offset: -1,
          negative_counts: [1],
          min: -0.8,
          max: 3.3,
        }),
      ]);
      expect(await points(`${p}summary`)).toEqual([expect.objectContaining({ type: 'summary', count: 10, sum: 55, quantiles: [0.5, 0.99], quantile_values: [5, 9.9] })]);
    });
  }

  it('gzip bodies, both encodings', async () => {
    const json = await post(gzipSync(JSON.stringify(metricsRequest([gauge('gz.json')]))), 'application/json', { 'content-encoding': 'gzip' });
    expect(json.statusCode).toBe(200);
    const pb = await post(gzipSync(metricsProtobuf(metricsRequest([gauge('gz.pb')]))), PB, { 'content-encoding': 'gzip' });
    expect(pb.statusCode).toBe(200);
    expect(await points('gz.json')).toHaveLength(1);
    expect(await points('gz.pb')).toHaveLength(1);
  });
});

describe('POST /v1/metrics: refusals', () => {
  it('partial success: points the native schema refuses are counted in rejectedDataPoints, the rest stored (protobuf)', async () => {
    const req = metricsRequest([
      gauge('partial.ok'),
      // A sum without temporality, a histogram whose buckets do not fit its bounds, a metric with no data.
      { name: 'partial.bad-sum', sum: { dataPoints: [{ timeUnixNano: T0_NS, asDouble: 1 }] } },
      { name: 'partial.bad-hist', histogram: { aggregationTemporality: DELTA, dataPoints: [{ timeUnixNano: T0_NS, explicitBounds: [1, 2], bucketCounts: ['1'] }] } },
      { name: 'partial.empty' },
      { name: 'partial.no-time', gauge: { dataPoints: [{ asDouble: 1 }] } },
    ]);
    const res = await post(metricsProtobuf(req), PB);
    expect(res.statusCode).toBe(200);
    const answer = metricsResponse(res.rawPayload);
    expect(answer.partialSuccess.rejectedDataPoints).toBe(4);
    expect(answer.partialSuccess.errorMessage).toContain('metric "partial.bad-sum" point 0: temporality: A sum needs temporality delta or cumulative');
    expect(answer.partialSuccess.errorMessage).toMatch(/partial\.bad-hist.*bucket_counts has one more entry than bounds/);
    expect(answer.partialSuccess.errorMessage).toMatch(/partial\.empty.*no data/);
    expect(answer.partialSuccess.errorMessage).toMatch(/partial\.no-time.*time/);
    expect(await points('partial.ok')).toHaveLength(1);
    expect((await h.produced('metric')).some((e) => e.data.metric.startsWith('partial.bad'))).toBe(false);
  });

  it('partial success in JSON: a NaN sum is refused (JSON cannot hold it, nor the store)', async () => {
    const hist = histogram('nan.hist');
    (hist.histogram.dataPoints[0] as Record<string, unknown>).sum = 'NaN';
    const res = await postJson(metricsRequest([hist, gauge('nan.ok')]));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ partialSuccess: { rejectedDataPoints: '1', errorMessage: expect.stringMatching(/nan\.hist.*sum/) } });
  });

  it('bad bodies: undecodable protobuf, a non-object JSON body, a non-hex exemplar trace id are 400 Status', async () => {
    const pb = await post(Buffer.from([0x0a, 0xff, 0xff, 0xff]), PB);
    expect(pb.statusCode).toBe(400);
    expect(status(pb.rawPayload).message).toMatch(/ExportMetricsServiceRequest/);
    const arr = await post('[1]', 'application/json');
    expect(arr.statusCode).toBe(400);
    const c = counter('bad.exemplar', '1');
    c.sum.dataPoints[0].exemplars[0].traceId = 'not-hex';
    const hex = await postJson(metricsRequest([c]));
    expect(hex.statusCode).toBe(400);
    expect(hex.json()).toMatchObject({ code: 3, message: expect.stringMatching(/traceId must be 32 hex/) });
  });

  it(`more than ${MAX_OTLP_RECORDS} data points in one request is 413 before decoding`, async () => {
    const many = { name: 'too.many', gauge: { dataPoints: Array.from({ length: MAX_OTLP_RECORDS + 1 }, () => ({ timeUnixNano: T0_NS, asDouble: 1 })) } };
    const json = await postJson(metricsRequest([many]));
    expect(json.statusCode).toBe(413);
    expect(json.json().message).toMatch(/more than 10000 data points/);
    const pb = await post(metricsProtobuf(metricsRequest([many])), PB);
    expect(pb.statusCode).toBe(413);
    expect(await points('too.many')).toHaveLength(0);
  });

  it('without a key: 401 Status, nothing produced', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/metrics',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(metricsRequest([gauge('nokey')])),
    });
    expect(res.statusCode).toBe(401);
    expect(await points('nokey')).toHaveLength(0);
  });
});

describe("docs/api.md's metrics examples", () => {
  it('POST /ingest/metrics: a gauge, a counter and a histogram', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/ingest/metrics',
      headers: { authorization: `Bearer ${h.project.key}`, 'content-type': 'application/json' },
      payload: {
        service: 'api',
        metrics: [
          { metric: 'doc.queue.depth', type: 'gauge', time: '2025-06-01T10:00:00Z', value: 3, attributes: { queue: 'mail' } },
          {
            metric: 'doc.http.requests',
            type: 'sum',
            temporality: 'cumulative',
            monotonic: true,
            start_time: '2025-06-01T09:00:00Z',
            time: '2025-06-01T10:00:00Z',
            value: 1042,
            attributes: { route: '/pay' },
          },
          {
            metric: 'doc.http.duration',
            type: 'histogram',
            temporality: 'delta',
            unit: 'ms',
            time: '2025-06-01T10:00:00Z',
            bounds: [10, 100, 1000],
            bucket_counts: [1, 2, 1, 0],
            sum: 605,
            min: 5,
            max: 500,
          },
        ],
      },
    });
    expect(res.json()).toEqual({ ok: true, count: 3 });
    expect(await points('doc.http.duration')).toEqual([expect.objectContaining({ count: 4, start_time: '1970-01-01T00:00:00.000Z', time: '2025-06-01T10:00:00.000Z' })]);
  });

  it('POST /v1/metrics: a sum without temporality is refused alone', async () => {
    const res = await postJson({
      resourceMetrics: [
        {
          scopeMetrics: [
            {
              metrics: [
                { name: 'queue.depth', gauge: { dataPoints: [{ timeUnixNano: '1748772000000000000', asDouble: 3 }] } },
                { name: 'http.requests', sum: { dataPoints: [{ timeUnixNano: '1748772000000000000', asInt: '5' }] } },
              ],
            },
          ],
        },
      ],
    });
    expect(res.json()).toEqual({
      partialSuccess: { rejectedDataPoints: '1', errorMessage: 'metric "http.requests" point 0: temporality: A sum needs temporality delta or cumulative' },
    });
  });

  it('a histogram whose buckets do not fit its bounds is a 400 on the native route', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/ingest/metrics',
      headers: { authorization: `Bearer ${h.project.key}`, 'content-type': 'application/json' },
      payload: { metrics: [{ metric: 'doc.bad', type: 'histogram', temporality: 'delta', time: '2025-06-01T10:00:00Z', bounds: [1], bucket_counts: [1] }] },
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('bucket_counts has one more entry than bounds');
  });
});
