import {
  attributesToObject,
  hexId,
  int64ToNumber,
  mapResource,
  nanosToIso,
  type Exemplar,
  type Int64,
  type Metric,
  type MetricsRequest,
  type PointBase,
} from '@devtrail/otlp';
import type { z } from 'zod';
import type { OtlpPart, OtlpUnit } from '../kind.ts';
import type { metricPointSchema } from './request.ts';
import type { MetricType } from './event.ts';

// OTLP metrics -> native data points (POST /ingest/metrics), one body per metric; a point the
// native schema refuses is refused alone (partial success). Field by field in docs/otlp.md
// ("Metrics").

type PointBody = z.input<typeof metricPointSchema>;

const TEMPORALITY = ['unspecified', 'delta', 'cumulative'] as const;

const num = (v: Int64 | null | undefined): number | undefined => (v === null || v === undefined ? undefined : int64ToNumber(v));
const nums = (list: Int64[] | null | undefined): number[] | undefined => (list?.length ? list.map(int64ToNumber) : undefined);
/**
 * A field of a oneof or an optional field, only when it was sent: protobufjs's messages read an
 * absent one as its default (0), which is not "absent".
 */
const sent = <T>(o: object, field: string): T | undefined => {
  const v = Object.hasOwn(o, field) ? (o as Record<string, unknown>)[field] : undefined;
  return v === null || v === undefined ? undefined : (v as T);
};
/** A NumberDataPoint's or an Exemplar's value: a double or an integer. */
const numberOf = (o: object): number => sent<number>(o, 'asDouble') ?? num(sent<Int64>(o, 'asInt')) ?? 0;

function exemplars(list: Exemplar[] | null | undefined): PointBody['exemplars'] {
  if (!list?.length) return undefined;
  return list.map((e) => ({
    time: isoOf(e.timeUnixNano),
    value: numberOf(e),
    trace_id: hexId(e.traceId) || undefined,
    span_id: hexId(e.spanId) || undefined,
    attributes: e.filteredAttributes?.length ? attributesToObject(e.filteredAttributes) : undefined,
  }));
}

/** A time, or '' for none or one no date holds: the native schema refuses that point alone. */
function isoOf(nanos: Int64 | null | undefined): string | undefined {
  try {
    return nanosToIso(nanos);
  } catch {
    return '';
  }
}

/** What every point type shares. */
function base(metric: Metric, type: MetricType, p: PointBase, temporality?: number | null): PointBody {
  return {
    metric: metric.name ?? '',
    type,
    unit: metric.unit || undefined,
    description: metric.description || undefined,
    temporality: temporality === undefined ? undefined : (TEMPORALITY[temporality ?? 0] ?? 'unspecified'),
    time: isoOf(p.timeUnixNano) ?? '',
    start_time: isoOf(p.startTimeUnixNano),
    attributes: p.attributes?.length ? attributesToObject(p.attributes) : undefined,
    exemplars: exemplars(p.exemplars),
    flags: p.flags || undefined,
  };
}

/** Each point of a metric as a native body, whatever its type. */
function pointsOf(metric: Metric): PointBody[] | undefined {
  const out: PointBody[] = [];
  if (metric.gauge) for (const p of metric.gauge.dataPoints ?? []) out.push({ ...base(metric, 'gauge', p), value: numberOf(p) });
  else if (metric.sum) {
    const s = metric.sum;
    for (const p of s.dataPoints ?? []) out.push({ ...base(metric, 'sum', p, s.aggregationTemporality), monotonic: s.isMonotonic === true, value: numberOf(p) });
  } else if (metric.histogram) {
    const h = metric.histogram;
    for (const p of h.dataPoints ?? [])
      out.push({
        ...base(metric, 'histogram', p, h.aggregationTemporality),
        count: num(p.count),
        sum: sent<number>(p, 'sum'),
        min: sent<number>(p, 'min'),
        max: sent<number>(p, 'max'),
        bounds: p.explicitBounds?.length ? [...p.explicitBounds] : undefined,
        bucket_counts: nums(p.bucketCounts),
      });
  } else if (metric.exponentialHistogram) {
    const h = metric.exponentialHistogram;
    for (const p of h.dataPoints ?? [])
      out.push({
        ...base(metric, 'exponential_histogram', p, h.aggregationTemporality),
        count: num(p.count),
        sum: sent<number>(p, 'sum'),
        min: sent<number>(p, 'min'),
        max: sent<number>(p, 'max'),
        scale: p.scale ?? 0,
        zero_count: num(p.zeroCount),
        positive_offset: p.positive?.offset ?? 0,
        positive_counts: nums(p.positive?.bucketCounts),
        negative_offset: p.negative?.offset ?? 0,
        negative_counts: nums(p.negative?.bucketCounts),
      });
  } else if (metric.summary) {
    for (const p of metric.summary.dataPoints ?? [])
      out.push({
        ...base(metric, 'summary', p),
        count: num(p.count),
        sum: sent<number>(p, 'sum'),
        quantiles: p.quantileValues?.length ? p.quantileValues.map((q) => ({ quantile: q.quantile ?? 0, value: q.value ?? 0 })) : undefined,
      });
  } else return undefined;
  return out;
}

export const metricsFromOtlp: OtlpPart<MetricsRequest> = {
  signal: 'metrics',
  primary: true,
  map(request) {
    const units: OtlpUnit[] = [];
    const rejected: string[] = [];
    for (const rm of request.resourceMetrics ?? []) {
      const { shared, rest } = mapResource(rm.resource);
      for (const sm of rm.scopeMetrics ?? [])
        for (const metric of sm.metrics ?? []) {
          const name = JSON.stringify(metric.name ?? '');
          const points = pointsOf(metric);
          if (!points) {
            rejected.push(`metric ${name}: no data (gauge, sum, histogram, exponential histogram or summary)`);
            continue;
          }
          if (points.length === 0) continue;
          for (const point of points) {
            if (rest) point.resource = rest;
            if (sm.scope?.name) point.scope = sm.scope.name;
            if (sm.scope?.version) point.scope_version = sm.scope.version;
          }
          // One body per metric: a point the schema refuses is found and refused alone (the kind's split), named by its index.
          units.push({ body: { service: shared.service, environment: shared.environment, release: shared.release, metrics: points }, label: `metric ${name} point` });
        }
    }
    return { units, rejected };
  },
};
