import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationType, MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import type { ExportResult } from '@opentelemetry/core';
import { startEmbeddedProcess, type EmbeddedProcess } from '../support/embedded-process.ts';

// The real OpenTelemetry JS SDK's metrics (sdk-metrics with the OTLP/HTTP exporters, JSON and
// protobuf with gzip) into the embedded process (`npm start`), read back through the metrics
// read API: a counter, a gauge, a histogram and an exponential histogram, with exact values,
// increases and rates, and a counter reset (a restarted process) counted once
// (docs/api.md#metrics, docs/otlp.md#metrics).

let e: EmbeddedProcess;
beforeAll(async () => {
  e = await startEmbeddedProcess();
}, 120_000);
afterAll(async () => e?.close());

type Encoding = 'json' | 'protobuf';

/** One process's meters: an SDK MeterProvider whose reader exports when flushed. */
function meterProvider(service: string, encoding: Encoding, results: ExportResult[]) {
  const options = { url: `${e.url}/v1/metrics`, headers: { authorization: `Bearer ${e.project.key}` } };
  const exporter: PushMetricExporter = encoding === 'protobuf' ? new ProtoMetricExporter({ ...options, compression: 'gzip' as never }) : new JsonMetricExporter(options);
  const recording: PushMetricExporter = {
    export: (metrics, cb) =>
      exporter.export(metrics, (r) => {
        results.push(r);
        cb(r);
      }),
    forceFlush: () => exporter.forceFlush(),
    shutdown: () => exporter.shutdown(),
    selectAggregationTemporality: exporter.selectAggregationTemporality?.bind(exporter),
  };
  const reader = new PeriodicExportingMetricReader({ exporter: recording, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': service, 'deployment.environment.name': 'staging', 'service.version': '1.0.0' }),
    readers: [reader],
    views: [{ instrumentName: 'payload.size', aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM } }],
  });
  return { meter: provider.getMeter('shop-meter', '1.2.0'), flush: () => reader.forceFlush(), shutdown: () => provider.shutdown() };
}

const api = async (path: string, query: Record<string, string | number>) => {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const r = await fetch(`${e.url}/api/projects/${e.project.id}/metrics${path}?${qs}`, { headers: { authorization: `Bearer ${e.operatorToken}` } });
  expect(r.status, await r.clone().text()).toBe(200);
  return (await r.json()) as any;
};

const started = Date.now();
/** One step over the whole test's range: each line's value is the aggregation of all of it. */
const whole = () => ({ from: started - 60_000, to: Date.now() + 1000, step: Math.ceil((Date.now() + 1000 - (started - 60_000)) / 1000) + 60 });
/** The one step's value per group. */
async function values(metric: string, aggregation: string, extra: Record<string, string> = {}) {
  const s = await api('/series', { metric, aggregation, ...whole(), ...extra });
  expect(s.truncated).toBe(false);
  return Object.fromEntries(
    s.series.map((line: { group: Record<string, string>; points: Array<{ value: number | null }> }) => [
      Object.values(line.group).join('|') || '*',
      line.points.find((p) => p.value !== null)?.value ?? null,
    ]),
  );
}

describe.each(['protobuf', 'json'] as const)('OpenTelemetry SDK metrics over OTLP/HTTP %s', (encoding) => {
  const service = `metrics-${encoding}`;
  const m = (name: string) => `${encoding}.${name}`;
  const filter = `service:${service}`;

  beforeAll(async () => {
    const results: ExportResult[] = [];
    const p = meterProvider(service, encoding, results);
    const orders = p.meter.createCounter(m('orders.placed'), { unit: '{order}', description: 'orders placed' });
    const depth = p.meter.createGauge(m('queue.depth'), { unit: '{job}' });
    const latency = p.meter.createHistogram(m('http.duration'), { unit: 'ms', advice: { explicitBucketBoundaries: [10, 100, 1000] } });
    const size = p.meter.createHistogram('payload.size', { unit: 'By' });
    orders.add(5, { route: '/pay' });
    orders.add(2, { route: '/cart' });
    depth.record(7, { queue: 'mail' });
    for (const v of [5, 50, 50, 500]) latency.record(v, { route: '/pay' });
    for (const v of [1, 2, 4, 8, 1000]) size.record(v);
    await p.flush();
    orders.add(3, { route: '/pay' });
    depth.record(4, { queue: 'mail' });
    await p.flush();
    await p.shutdown();
    // The process restarts: its counter starts again from 0 (a reset, a new start time).
    const again = meterProvider(service, encoding, results);
    again.meter.createCounter(m('orders.placed'), { unit: '{order}', description: 'orders placed' }).add(1, { route: '/pay' });
    await again.flush();
    await again.shutdown();
    expect(results.length).toBeGreaterThanOrEqual(3);
    expect(results.map((r) => r.code)).toEqual(results.map(() => 0));
    // Stored: the sink writes within a batch interval (a bounded wait; expect.poll is for tests).
    const points = async () => (await api('', { from: started - 60_000 })).metrics.find((x: { name: string }) => x.name === m('orders.placed'))?.points;
    for (const deadline = Date.now() + 30_000; (await points()) !== 8 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 200));
  }, 90_000);

  it('lists the metrics with their type, unit, description and temporality', async () => {
    const { metrics } = await api('', { from: started - 60_000 });
    const byName = Object.fromEntries(metrics.map((x: { name: string }) => [x.name, x]));
    // A cumulative reader sends every series at each collection: two flushes and a shutdown, then the restarted process's flush and shutdown.
    expect(byName[m('orders.placed')]).toMatchObject({
      type: 'sum',
      unit: '{order}',
      description: 'orders placed',
      temporality: 'cumulative',
      monotonic: true,
      points: 8,
    });
    expect(byName[m('queue.depth')]).toMatchObject({ type: 'gauge', unit: '{job}', temporality: 'unspecified', points: 3 });
    expect(byName[m('http.duration')]).toMatchObject({ type: 'histogram', unit: 'ms', temporality: 'cumulative' });
    expect(byName['payload.size']).toMatchObject({ type: 'exponential_histogram', unit: 'By' });
  });

  it('a counter: its increase over the range counts the reset once, its total is the latest value', async () => {
    const by = { group_by: 'route', filter };
    expect(await values(m('orders.placed'), 'increase', by)).toEqual({ '/pay': 9, '/cart': 2 });
    const step = whole().step;
    const rates = await values(m('orders.placed'), 'rate', by);
    expect(rates['/pay']).toBeCloseTo(9 / step, 10);
    expect(rates['/cart']).toBeCloseTo(2 / step, 10);
    // A filter in the search syntax: an attribute key, and NOT.
    expect(await values(m('orders.placed'), 'increase', { group_by: 'route', filter: `${filter} route:/pay` })).toEqual({ '/pay': 9 });
    expect(await values(m('orders.placed'), 'increase', { filter: `${filter} -attributes.route:/pay` })).toEqual({ '*': 2 });
    // The latest cumulative value of each series: after the reset, /pay counts 1.
    expect(await values(m('orders.placed'), 'sum', by)).toEqual({ '/pay': 1, '/cart': 2 });
  });

  it('a gauge: its latest, its minimum and its maximum', async () => {
    expect(await values(m('queue.depth'), 'sum', { group_by: 'queue' })).toEqual({ mail: 4 });
    expect(await values(m('queue.depth'), 'max')).toEqual({ '*': 7 });
    expect(await values(m('queue.depth'), 'min')).toEqual({ '*': 4 });
    // 7, then 4 twice (the second flush and the shutdown's).
    expect(await values(m('queue.depth'), 'avg')).toEqual({ '*': 5 });
  });

  it('a histogram: count, sum, average, min, max and percentiles from its buckets', async () => {
    const h = m('http.duration');
    expect(await values(h, 'count')).toEqual({ '*': 4 });
    expect(await values(h, 'sum')).toEqual({ '*': 605 });
    expect(await values(h, 'avg')).toEqual({ '*': 151.25 });
    expect(await values(h, 'min')).toEqual({ '*': 5 });
    expect(await values(h, 'max')).toEqual({ '*': 500 });
    // Buckets (..10] 1, (10..100] 2, (100..1000] 1: the median's rank 2 lies halfway into (10..100].
    expect(await values(h, 'p50')).toEqual({ '*': 55 });
    // p75's rank 3 is the end of (10..100]; p99's rank 3.96 is 96 % into (100..1000].
    expect(await values(h, 'p75')).toEqual({ '*': 100 });
    expect((await values(h, 'p99'))['*']).toBeCloseTo(964, 6);
  });

  it('an exponential histogram: count, sum and a median inside the bucket that holds 4', async () => {
    const f = { filter };
    expect(await values('payload.size', 'count', f)).toEqual({ '*': 5 });
    expect(await values('payload.size', 'sum', f)).toEqual({ '*': 1015 });
    expect(await values('payload.size', 'max', f)).toEqual({ '*': 1000 });
    const p50 = (await values('payload.size', 'p50', f))['*'];
    expect(p50).toBeGreaterThan(3.5);
    expect(p50).toBeLessThanOrEqual(4);
  });

  it('answers the attribute keys and values of a metric, and refuses an aggregation the type has not', async () => {
    const { keys } = await api('/attributes', { metric: m('orders.placed'), from: started - 60_000 });
    expect(keys).toEqual([{ key: 'attributes.route', values: 2 }]);
    const { values: v } = await api('/attribute-values', { metric: m('orders.placed'), key: 'route', from: started - 60_000 });
    expect(v).toEqual([
      { value: '/pay', points: 5 },
      { value: '/cart', points: 3 },
    ]);
    const r = await fetch(`${e.url}/api/projects/${e.project.id}/metrics/series?metric=${m('queue.depth')}&aggregation=rate`, {
      headers: { authorization: `Bearer ${e.operatorToken}` },
    });
    expect(r.status).toBe(400);
    expect(await r.text()).toMatch(/rate needs a sum or a histogram/);
  });
});
