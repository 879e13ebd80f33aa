import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KINDS,
  MAX_GROUPS,
  metricBatchSchema,
  metricsToEvents,
  METRIC_SEARCH,
  parseSearch,
  readMetricAttributeKeys,
  readMetricAttributeValues,
  readMetricNames,
  readMetricPoints,
  readMetricSeries,
  type MetricAggregation,
} from '@devtrail/kinds';
import { newEnvelope, toRow } from '../../../test/support/envelopes.ts';
import { embeddedAdapters } from '../../../test/support/embedded-adapters.ts';

// The metric reads' SQL on the engine (chdb here; the ClickHouse floor in the floor lane): points
// written as the sink writes them, read back as names, keys, values, points and series, with
// exact values for each point type, a counter reset, a delta sum, groups, a filter and the
// groups' bound (docs/api.md#metrics).

let adapters: Awaited<ReturnType<typeof embeddedAdapters>>;
const project = 'metric-series-project';
const T = Date.parse('2026-11-20T10:00:00.000Z');
const at = (s: number) => new Date(T + s * 1000).toISOString();
const range = { fromMs: T - 60_000, toMs: T + 600_000 };

async function write(points: unknown[], service = 'shop') {
  const events = metricsToEvents(metricBatchSchema.parse({ service, metrics: points }), at(0));
  await adapters.columnStore.insert(
    KINDS.metric.name,
    events.map((e) => toRow(newEnvelope('metric', project, new Date().toISOString(), e))),
  );
}

beforeAll(async () => {
  adapters = await embeddedAdapters();
  const counter = (route: string, s: number, value: number, start = at(-1)) => ({
    metric: 'requests',
    type: 'sum',
    temporality: 'cumulative',
    monotonic: true,
    start_time: start,
    time: at(s),
    value,
    attributes: { route },
  });
  await write([
    counter('/pay', 0, 10),
    counter('/pay', 60, 25),
    // A restart: a new start time, counting from 0 again.
    counter('/pay', 120, 4, at(100)),
    counter('/cart', 0, 1),
    counter('/cart', 60, 3),
    { metric: 'deliveries', type: 'sum', temporality: 'delta', time: at(10), value: 2 },
    { metric: 'deliveries', type: 'sum', temporality: 'delta', time: at(20), value: 5 },
    { metric: 'depth', type: 'gauge', time: at(0), value: 8, attributes: { queue: 'a' } },
    { metric: 'depth', type: 'gauge', time: at(30), value: 2, attributes: { queue: 'a' } },
    { metric: 'depth', type: 'gauge', time: at(30), value: 5, attributes: { queue: 'b' } },
    // Exponential, scale 0 (base 2): buckets (1,2] 2 and (2,4] 2.
    { metric: 'size', type: 'exponential_histogram', temporality: 'delta', time: at(0), scale: 0, positive_offset: 0, positive_counts: [2, 2], sum: 10 },
    {
      metric: 'latency',
      type: 'summary',
      time: at(0),
      count: 10,
      sum: 55,
      quantiles: [
        { quantile: 0.5, value: 5 },
        { quantile: 0.99, value: 9.9 },
      ],
    },
  ]);
  await write(
    Array.from({ length: MAX_GROUPS + 1 }, (_, i) => ({ metric: 'wide', type: 'gauge', time: at(0), value: i, attributes: { n: i } })),
    'wide-service',
  );
}, 60_000);
afterAll(async () => adapters.close());

const q = (metric: string, aggregation: MetricAggregation, more: { groupBy?: string[]; filter?: string; stepMs?: number } = {}) =>
  readMetricSeries(adapters.columnStore, {
    projectId: project,
    retentionDays: 30,
    metric,
    range,
    stepMs: more.stepMs ?? 3600_000,
    aggregation,
    groupBy: more.groupBy ?? [],
    filter: more.filter ? parseSearch(more.filter, METRIC_SEARCH) : null,
  });
const one = async (...args: Parameters<typeof q>) =>
  Object.fromEntries((await q(...args)).series.map((s) => [Object.values(s.group).join('|') || '*', s.points.find((p) => p.value !== null)?.value ?? null]));

describe('metric reads', () => {
  it('a cumulative counter: increase counts the reset once; rate per second; sum is the latest total', async () => {
    expect(await one('requests', 'increase', { groupBy: ['route'] })).toEqual({ '/pay': 29, '/cart': 3 });
    expect((await one('requests', 'rate', { groupBy: ['route'] }))['/pay']).toBeCloseTo(29 / 3600, 12);
    expect(await one('requests', 'sum', { groupBy: ['attributes.route'] })).toEqual({ '/pay': 4, '/cart': 3 });
    // Per minute: each step holds what it added.
    const perMinute = await q('requests', 'increase', { stepMs: 60_000, filter: 'route:/pay' });
    expect(perMinute.series[0].points.filter((p) => p.value !== null).map((p) => p.value)).toEqual([10, 15, 4]);
  });

  it('a delta sum, a gauge and its groups', async () => {
    expect(await one('deliveries', 'increase')).toEqual({ '*': 7 });
    expect(await one('depth', 'sum')).toEqual({ '*': 7 });
    expect(await one('depth', 'max', { groupBy: ['queue'] })).toEqual({ a: 8, b: 5 });
    expect(await one('depth', 'avg', { filter: '-queue:b' })).toEqual({ '*': 5 });
  });

  it('percentiles of an exponential histogram and of a summary', async () => {
    // Rank 2 of 4 is the end of (1,2]; rank 3 halfway into (2,4].
    expect(await one('size', 'p50')).toEqual({ '*': 2 });
    expect(await one('size', 'p75')).toEqual({ '*': 3 });
    expect(await one('latency', 'p99')).toEqual({ '*': 9.9 });
    expect(await one('latency', 'avg')).toEqual({ '*': 5.5 });
    await expect(q('latency', 'rate')).rejects.toThrow(/rate needs a sum or a histogram/);
  });

  it(`at most ${MAX_GROUPS} groups: the answer says it is partial`, async () => {
    const wide = await q('wide', 'sum', { groupBy: ['n'] });
    expect(wide.series).toHaveLength(MAX_GROUPS);
    expect(wide.truncated).toBe(true);
  });

  it('names, keys, values and points', async () => {
    const names = await readMetricNames(adapters.columnStore, { projectId: project, retentionDays: 30, range });
    expect(names.find((n) => n.name === 'requests')).toMatchObject({ type: 'sum', temporality: 'cumulative', monotonic: true, points: 5 });
    const keys = await readMetricAttributeKeys(adapters.columnStore, { projectId: project, retentionDays: 30, range, metric: 'depth' });
    expect(keys).toEqual([{ key: 'attributes.queue', values: 2 }]);
    const values = await readMetricAttributeValues(adapters.columnStore, { projectId: project, retentionDays: 30, range, metric: 'depth', key: 'queue' });
    expect(values).toEqual([
      { value: 'a', points: 2 },
      { value: 'b', points: 1 },
    ]);
    const points = await readMetricPoints(adapters.columnStore, { projectId: project, retentionDays: 30, range, metric: 'size' });
    expect(points).toEqual([expect.objectContaining({ type: 'exponential_histogram', count: 4, positive_counts: [2, 2], min: null })]);
  });
});
