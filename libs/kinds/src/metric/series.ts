import { parseJson, withinRetention, type ColumnStore, type TimeRange } from '@devtrail/column-store';
import { metric } from './index.ts';
import type { SearchNode } from '../search/syntax.ts';
import { searchSql } from '../search/sql.ts';
import { METRIC_SEARCH } from './search.ts';
import { deltasOf, type Delta, type PointRow } from './deltas.ts';
import { explicitQuantile, exponentialQuantile, mergeExplicit, mergeExponential } from './histograms.ts';

// A metric as time series (docs/api.md#metrics): its points in a range, filtered, grouped by
// attributes, in steps, each step one aggregation. The points are read once, bounded, in
// series order; deltas (deltas.ts) and aggregations are computed from them here, so every
// aggregation reads the same rows and a counter's reset is handled in one place.

export const METRIC_AGGREGATIONS = ['sum', 'avg', 'min', 'max', 'count', 'increase', 'rate', 'p50', 'p75', 'p90', 'p95', 'p99'] as const;
export type MetricAggregation = (typeof METRIC_AGGREGATIONS)[number];
/** Points one series read takes at most (the answer says `truncated` past it). */
export const MAX_SERIES_POINTS = 100_000;
/** Groups (lines) one answer holds at most. */
export const MAX_GROUPS = 50;
/** Steps one answer holds at most: a smaller step is made larger. */
export const MAX_STEPS = 1500;
export const MAX_GROUP_KEYS = 5;
const MAX_EXEMPLARS = 100;

/** A refused query (a 400 for the read API). */
export class MetricQueryError extends Error {}

export interface MetricSeriesQuery {
  projectId: string;
  retentionDays: number;
  metric: string;
  range: TimeRange;
  stepMs: number;
  aggregation: MetricAggregation;
  groupBy: string[];
  filter: SearchNode | null;
}

export interface MetricSeries {
  metric: string;
  type: string | null;
  unit: string;
  aggregation: MetricAggregation;
  step_seconds: number;
  series: Array<{ group: Record<string, string>; points: Array<{ time: string; value: number | null }> }>;
  exemplars: Array<{ time: string; value: number; trace_id: string; span_id: string; group: Record<string, string> }>;
  /** More points than one read takes, or more groups than one answer holds: the answer is partial. */
  truncated: boolean;
}

const COLUMNS = new Set(['service', 'environment', 'release', 'scope']);

/** A group key's expression: a column, or an attribute's value as text. */
function groupExpr(key: string, i: number, params: Record<string, unknown>): string {
  if (COLUMNS.has(key)) return key;
  const [column, name] = key.startsWith('resource.') ? ['resource', key.slice(9)] : ['attributes', key.startsWith('attributes.') ? key.slice(11) : key];
  params[`g${i}`] = name;
  return `if(JSONType(${column}, {g${i}:String}) = 'String', JSONExtractString(${column}, {g${i}:String}), JSONExtractRaw(${column}, {g${i}:String}))`;
}

const RATE_KINDS = new Set(['sum', 'histogram', 'exponential_histogram']);
const HISTOGRAMS = new Set(['histogram', 'exponential_histogram']);

function check(type: string, a: MetricAggregation): void {
  if ((a === 'rate' || a === 'increase') && !RATE_KINDS.has(type)) throw new MetricQueryError(`${a} needs a sum or a histogram; this metric is a ${type}`);
  if ((a === 'min' || a === 'max') && type === 'summary') throw new MetricQueryError(`${a} needs a gauge, a sum or a histogram; this metric is a summary`);
  if (a.startsWith('p') && !HISTOGRAMS.has(type) && type !== 'summary') throw new MetricQueryError(`${a} needs a histogram or a summary; this metric is a ${type}`);
}

type Row = PointRow & { g: string[]; exemplars: string };

export async function readMetricSeries(store: ColumnStore, q: MetricSeriesQuery): Promise<MetricSeries> {
  if (q.groupBy.length > MAX_GROUP_KEYS) throw new MetricQueryError(`group by at most ${MAX_GROUP_KEYS} keys`);
  const stepMs = Math.max(q.stepMs, 1000, Math.ceil((q.range.toMs - q.range.fromMs) / MAX_STEPS / 1000) * 1000);
  const first = Math.floor(q.range.fromMs / stepMs) * stepMs;
  // One step before the range: a cumulative point's difference from the one before it.
  const readFrom = first - stepMs;
  const params: Record<string, unknown> = {
    project: q.projectId,
    metric: q.metric,
    from: readFrom,
    to: q.range.toMs,
    retention: q.retentionDays,
    limit: MAX_SERIES_POINTS + 1,
  };
  const groups = q.groupBy.map((k, i) => groupExpr(k, i, params));
  const search = q.filter ? searchSql(q.filter, METRIC_SEARCH, 'mq') : null;
  Object.assign(params, search?.params ?? {});
  const rows = await store.query<Row>(
    `SELECT toString(cityHash64(service, environment, release, scope, attributes, resource)) AS series, CAST([${groups.join(', ')}] AS Array(String)) AS g,
            type, temporality, monotonic, toUnixTimestamp64Milli(time) AS t, toUnixTimestamp64Milli(start_time) AS s,
            value, count, sum, min, max, bounds, bucket_counts, scale, zero_count, positive_offset, positive_counts, negative_offset, negative_counts,
            quantiles, quantile_values, exemplars
       FROM ${metric.name} FINAL
      WHERE project_id = {project:String} AND metric = {metric:String}
        AND time >= fromUnixTimestamp64Milli({from:Int64}) AND time <= fromUnixTimestamp64Milli({to:Int64})
        AND ${withinRetention(metric.tableDef.ttlColumn)}
        ${search ? `AND ${search.where}` : ''}
      ORDER BY series, t
      LIMIT {limit:UInt32}`,
    params,
  );
  let truncated = rows.length > MAX_SERIES_POINTS;
  const points = rows.slice(0, MAX_SERIES_POINTS).map(numeric);
  const meta = await readMeta(store, q);
  const type = meta?.type ?? points[0]?.type ?? null;
  if (type) check(type, q.aggregation);
  const own = points.filter((p) => p.type === type);
  const deltas = deltasOf(own, readFrom);

  const steps = Math.max(1, Math.ceil((q.range.toMs - first + 1) / stepMs));
  const byGroup = new Map<string, { group: Record<string, string>; steps: Map<number, Array<{ p: Row; d: Delta | null }>> }>();
  const exemplars: MetricSeries['exemplars'] = [];
  own.forEach((p, i) => {
    if (p.t < q.range.fromMs) return;
    const key = JSON.stringify(p.g);
    let g = byGroup.get(key);
    if (!g) {
      if (byGroup.size >= MAX_GROUPS) {
        truncated = true;
        return;
      }
      byGroup.set(key, (g = { group: Object.fromEntries(q.groupBy.map((k, n) => [k, p.g[n]])), steps: new Map() }));
    }
    const step = Math.floor((p.t - first) / stepMs);
    const list = g.steps.get(step) ?? [];
    list.push({ p, d: deltas[i] });
    g.steps.set(step, list);
    if (exemplars.length < MAX_EXEMPLARS && p.exemplars !== '[]')
      for (const e of parseJson(p.exemplars) as Array<{ time: string; value: number; trace_id: string; span_id: string }>)
        if (exemplars.length < MAX_EXEMPLARS) exemplars.push({ time: e.time, value: e.value, trace_id: e.trace_id, span_id: e.span_id, group: g.group });
  });
  const series = [...byGroup.values()].map((g) => ({
    group: g.group,
    points: Array.from({ length: steps }, (_, n) => {
      const list = g.steps.get(n);
      return { time: new Date(first + n * stepMs).toISOString(), value: list ? aggregate(q.aggregation, list, stepMs) : null };
    }),
  }));
  return { metric: q.metric, type, unit: meta?.unit ?? '', aggregation: q.aggregation, step_seconds: stepMs / 1000, series, exemplars, truncated };
}

async function readMeta(store: ColumnStore, q: MetricSeriesQuery): Promise<{ type: string; unit: string } | undefined> {
  const [row] = await store.query<{ type: string; unit: string }>(
    `SELECT type, unit FROM ${metric.name}
      WHERE project_id = {project:String} AND metric = {metric:String} AND ${withinRetention(metric.tableDef.ttlColumn)}
      ORDER BY time DESC LIMIT 1`,
    { project: q.projectId, metric: q.metric, retention: q.retentionDays },
  );
  return row;
}

const num = (v: unknown) => Number(v);
const nums = (v: unknown) => (v as unknown[]).map(Number);

/** The store's 64-bit integers may come as text (JSON output quotes them). */
function numeric(r: Row): Row {
  return {
    ...r,
    monotonic: r.monotonic === true || (r.monotonic as unknown) === 1 || (r.monotonic as unknown) === 'true',
    t: num(r.t),
    s: num(r.s),
    value: num(r.value),
    count: num(r.count),
    sum: num(r.sum),
    min: r.min === null ? null : num(r.min),
    max: r.max === null ? null : num(r.max),
    bounds: nums(r.bounds),
    bucket_counts: nums(r.bucket_counts),
    scale: num(r.scale),
    zero_count: num(r.zero_count),
    positive_offset: num(r.positive_offset),
    positive_counts: nums(r.positive_counts),
    negative_offset: num(r.negative_offset),
    negative_counts: nums(r.negative_counts),
    quantiles: nums(r.quantiles),
    quantile_values: nums(r.quantile_values),
  };
}

/** The latest point of each series in a step (a gauge's reading, a cumulative total). */
function lastPerSeries(list: Array<{ p: Row }>): Row[] {
  const last = new Map<string, Row>();
  for (const { p } of list) if ((last.get(p.series)?.t ?? -1) <= p.t) last.set(p.series, p);
  return [...last.values()];
}

const total = (xs: number[]) => xs.reduce((n, x) => n + x, 0);
const known = (list: Array<{ d: Delta | null }>) => list.map((x) => x.d).filter((d): d is Delta => d !== null);

function aggregate(a: MetricAggregation, list: Array<{ p: Row; d: Delta | null }>, stepMs: number): number | null {
  const type = list[0].p.type;
  const histogram = HISTOGRAMS.has(type);
  const deltas = known(list);
  switch (a) {
    case 'sum':
      if (histogram) return deltas.length ? total(deltas.map((d) => d.sum)) : null;
      if (type === 'sum' && list[0].p.temporality === 'delta') return total(list.map((x) => x.p.value));
      if (type === 'summary') return total(lastPerSeries(list).map((p) => p.sum));
      return total(lastPerSeries(list).map((p) => p.value));
    case 'avg': {
      if (histogram || type === 'summary') {
        const parts = histogram ? deltas : lastPerSeries(list);
        const count = total(parts.map((d) => d.count));
        return count > 0 ? total(parts.map((d) => d.sum)) / count : null;
      }
      return total(list.map((x) => x.p.value)) / list.length;
    }
    case 'min':
    case 'max': {
      const values = histogram ? list.map((x) => (a === 'min' ? x.p.min : x.p.max)).filter((v): v is number => v !== null) : list.map((x) => x.p.value);
      if (values.length === 0) return null;
      return a === 'min' ? Math.min(...values) : Math.max(...values);
    }
    case 'count':
      if (histogram) return deltas.length ? total(deltas.map((d) => d.count)) : null;
      if (type === 'summary') return total(lastPerSeries(list).map((p) => p.count));
      return list.length;
    case 'increase':
    case 'rate': {
      if (deltas.length === 0) return null;
      const increase = total(deltas.map((d) => (histogram ? d.count : d.value)));
      return a === 'rate' ? increase / (stepMs / 1000) : increase;
    }
    default: {
      const q = Number(a.slice(1)) / 100;
      if (type === 'summary') {
        const values = lastPerSeries(list)
          .map((p) => p.quantile_values[p.quantiles.findIndex((x) => Math.abs(x - q) < 1e-9)])
          .filter((v) => v !== undefined);
        return values.length ? total(values) / values.length : null;
      }
      if (type === 'histogram') {
        const merged = mergeExplicit(deltas.map((d) => d.explicit).filter((h) => h !== undefined));
        return merged ? explicitQuantile(merged, q) : null;
      }
      const merged = mergeExponential(deltas.map((d) => d.exponential).filter((h) => h !== undefined));
      return merged ? exponentialQuantile(merged, q) : null;
    }
  }
}
