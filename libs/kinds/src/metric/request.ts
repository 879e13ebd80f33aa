import { z } from 'zod';
import { storeAmount, storeCount, storeTimestamp } from '@devtrail/column-store/store-domain';
import { utc } from '../checks.ts';
import { id, jsonObject, release, sharedRequestFields } from '../request-fields.ts';
import { metricTypes, temporalities, type MetricEvent } from './event.ts';

// POST /ingest/metrics: a batch of data points sharing service, environment and release
// (docs/api.md#metrics), one event per point; OTLP metrics map onto the same points (otlp.ts).
// Every list is bounded, so a point's row stays small whatever is sent.

export const MAX_POINTS_PER_BATCH = 1000;
/** Buckets of an explicit histogram (OpenTelemetry's default has 16), and of each range of an exponential one (default 160). */
export const MAX_BUCKETS = 1000;
export const MAX_QUANTILES = 100;
export const MAX_EXEMPLARS = 20;
export const MAX_METRIC_NAME = 255;
/** OpenTelemetry's own limits on an exponential histogram's scale. */
export const SCALE_RANGE = [-10, 20] as const;

const exemplarInput = z.object({
  time: storeTimestamp.optional(),
  value: storeAmount,
  trace_id: id.optional(),
  span_id: id.optional(),
  attributes: jsonObject.optional(),
});

const offset = z
  .number()
  .int()
  .min(-(2 ** 31))
  .max(2 ** 31 - 1);

/** A point's fields; metricPointSchema adds the checks across them. */
export const metricPointFields = z.object({
  metric: z.string().min(1).max(MAX_METRIC_NAME),
  type: z.enum(metricTypes),
  unit: z.string().max(63).optional(),
  description: z.string().max(1000).optional(),
  /** Sums and histograms: delta or cumulative. */
  temporality: z.enum(temporalities).optional(),
  monotonic: z.boolean().optional(),
  time: storeTimestamp,
  start_time: storeTimestamp.optional(),
  attributes: jsonObject.optional(),
  resource: jsonObject.optional(),
  scope: z.string().max(255).optional(),
  scope_version: z.string().max(255).optional(),
  value: storeAmount.optional(),
  count: storeCount.optional(),
  sum: storeAmount.optional(),
  min: storeAmount.optional(),
  max: storeAmount.optional(),
  bounds: z.array(storeAmount).max(MAX_BUCKETS).optional(),
  bucket_counts: z
    .array(storeCount)
    .max(MAX_BUCKETS + 1)
    .optional(),
  scale: z.number().int().min(SCALE_RANGE[0]).max(SCALE_RANGE[1]).optional(),
  zero_count: storeCount.optional(),
  positive_offset: offset.optional(),
  positive_counts: z.array(storeCount).max(MAX_BUCKETS).optional(),
  negative_offset: offset.optional(),
  negative_counts: z.array(storeCount).max(MAX_BUCKETS).optional(),
  quantiles: z
    .array(z.object({ quantile: z.number().min(0).max(1), value: storeAmount }))
    .max(MAX_QUANTILES)
    .optional(),
  exemplars: z.array(exemplarInput).max(MAX_EXEMPLARS).optional(),
  flags: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  release: release.optional(),
});

export const metricPointSchema = metricPointFields.superRefine((p, ctx) => {
  const issue = (message: string, path: string[] = []) => ctx.addIssue({ code: z.ZodIssueCode.custom, message, path });
  const accumulates = p.type === 'sum' || p.type === 'histogram' || p.type === 'exponential_histogram';
  if (accumulates && p.temporality !== 'delta' && p.temporality !== 'cumulative') issue(`A ${p.type} needs temporality delta or cumulative`, ['temporality']);
  if ((p.type === 'gauge' || p.type === 'sum') && p.value === undefined) issue(`A ${p.type} needs a value`, ['value']);
  if (p.type === 'histogram') {
    const bounds = p.bounds ?? [];
    const buckets = p.bucket_counts ?? [];
    if (buckets.length > 0 && buckets.length !== bounds.length + 1) issue('bucket_counts has one more entry than bounds', ['bucket_counts']);
    if (bounds.some((b, i) => i > 0 && b <= bounds[i - 1])) issue('bounds must increase', ['bounds']);
  }
  if (p.start_time && Date.parse(p.start_time) > Date.parse(p.time)) issue('start_time is after time', ['start_time']);
});

export const metricBatchSchema = z.object({
  ...sharedRequestFields,
  metrics: z.array(metricPointSchema).min(1).max(MAX_POINTS_PER_BATCH),
});

export type MetricBatch = z.infer<typeof metricBatchSchema>;
export type MetricPoint = z.infer<typeof metricPointSchema>;

/** An object with its keys in order: a series is named by its attributes' text (read.ts). */
export function sortedKeys(o: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(o);
  if (keys.every((k, i) => i === 0 || keys[i - 1] < k)) return o;
  const out: Record<string, unknown> = {};
  for (const k of keys.sort()) out[k] = o[k];
  return out;
}

const sumOf = (a: number[]) => a.reduce((n, v) => n + v, 0);

/** The start time of a point that has none: the Unix epoch, which no series' own start can be (deltas.ts). */
export const UNKNOWN_START = '1970-01-01T00:00:00.000Z';

export function metricsToEvents(batch: MetricBatch, _now: string): MetricEvent[] {
  return batch.metrics.map((p) => {
    const time = utc(p.time);
    const buckets = p.bucket_counts ?? [];
    const positive = p.positive_counts ?? [];
    const negative = p.negative_counts ?? [];
    const counted = sumOf(buckets) + sumOf(positive) + sumOf(negative) + (p.zero_count ?? 0);
    const histogram = p.type === 'histogram' || p.type === 'exponential_histogram';
    return {
      service: batch.service,
      environment: batch.environment,
      release: p.release ?? batch.release ?? '',
      metric: p.metric,
      type: p.type,
      unit: p.unit ?? '',
      description: p.description ?? '',
      temporality: p.type === 'gauge' || p.type === 'summary' ? 'unspecified' : (p.temporality ?? 'unspecified'),
      monotonic: p.type === 'sum' ? (p.monotonic ?? false) : false,
      time,
      start_time: p.start_time ? utc(p.start_time) : UNKNOWN_START,
      attributes: sortedKeys(p.attributes ?? {}),
      resource: sortedKeys(p.resource ?? {}),
      scope: p.scope ?? '',
      scope_version: p.scope_version ?? '',
      value: p.value ?? 0,
      // A histogram without a count has the count of its buckets.
      count: p.count ?? (histogram ? counted : 0),
      sum: p.sum ?? 0,
      min: p.min ?? null,
      max: p.max ?? null,
      bounds: p.type === 'histogram' ? (p.bounds ?? []) : [],
      bucket_counts: p.type === 'histogram' ? buckets : [],
      scale: p.scale ?? 0,
      zero_count: p.zero_count ?? 0,
      positive_offset: p.positive_offset ?? 0,
      positive_counts: positive,
      negative_offset: p.negative_offset ?? 0,
      negative_counts: negative,
      quantiles: (p.quantiles ?? []).map((q) => q.quantile),
      quantile_values: (p.quantiles ?? []).map((q) => q.value),
      exemplars: (p.exemplars ?? []).map((e) => ({
        time: e.time ? utc(e.time) : time,
        value: e.value,
        trace_id: e.trace_id ?? '',
        span_id: e.span_id ?? '',
        attributes: e.attributes ?? {},
      })),
      flags: p.flags ?? 0,
    };
  });
}

/** A batch as batches of one point each, sharing its fields. */
export function splitMetricBatch(body: unknown): Array<{ body: unknown; path: Array<string | number> }> {
  const { metrics, ...shared } = body as { metrics: unknown[] };
  return metrics.map((point) => ({ body: { ...shared, metrics: [point] }, path: ['metrics', 0] }));
}
