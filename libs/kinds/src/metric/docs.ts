import { z } from 'zod';
import { describeFields } from '@devtrail/http/api-docs';
import type { KindDocs } from '../kind.ts';
import { COUNT_NOTE, METADATA_NOTE, requestComponent } from '../docs.ts';
import { MAX_BUCKETS, MAX_EXEMPLARS, MAX_POINTS_PER_BATCH, MAX_QUANTILES, metricBatchSchema, metricPointFields } from './request.ts';

export const METRIC_PATH = '/ingest/metrics';

export const metricDocs: KindDocs = {
  summary: 'Send a batch of metric data points',
  description: `1 to ${MAX_POINTS_PER_BATCH} data points (gauges, sums, histograms, exponential histograms, summaries); count is the number accepted.`,
  sample: { metrics: [{ metric: 'queue.depth', type: 'gauge', time: '2025-06-01T10:00:00.000Z', value: 3 }] },
  required: 'metrics',
  recordName: 'MetricPoint',
  success: { name: 'OkCount', schema: () => z.object({ ok: z.literal(true), count: z.number().int().min(0) }) },
  requestBody(docs) {
    const metrics = metricBatchSchema.shape.metrics;
    const point = docs.registry.register(
      'MetricPointInput',
      describeFields(metricPointFields, {
        metric: 'The metric’s name (its series: the points of one name with the same attributes, resource and scope).',
        type: 'gauge, sum, histogram, exponential_histogram or summary.',
        temporality: 'Sums and histograms (required for them): delta (since the previous point) or cumulative (since start_time).',
        monotonic: 'Sums: the sum only grows (a counter); a cumulative one that falls was reset.',
        time: 'ISO 8601 with a Z or an offset; normalised to UTC with milliseconds.',
        start_time: 'When a cumulative point started counting. Default: unknown, stored as 1970-01-01T00:00:00.000Z.',
        attributes: METADATA_NOTE,
        resource: 'The resource attributes beyond service, environment and release.',
        value: 'Gauges and sums (required for them).',
        count: `Histograms and summaries: ${COUNT_NOTE} Default for histograms: the sum of the buckets.`,
        bounds: `Explicit histograms: at most ${MAX_BUCKETS} increasing upper bounds.`,
        bucket_counts: 'Explicit histograms: one count more than bounds (the last bucket is unbounded).',
        scale: 'Exponential histograms: base = 2^(2^-scale).',
        quantiles: `Summaries: at most ${MAX_QUANTILES} quantiles (0..1) with their values.`,
        exemplars: `At most ${MAX_EXEMPLARS} measurements with their trace and span ids.`,
        release: 'Overrides the batch release.',
      }),
    );
    // The batch's own metrics array (its min and max kept), with items pointing at MetricPointInput.
    const batch = metricBatchSchema.extend({ metrics: new z.ZodArray({ ...metrics._def, type: point }) as unknown as typeof metrics });
    return requestComponent(docs, 'MetricBatch', batch, METRIC_PATH, { metrics: `1 to ${MAX_POINTS_PER_BATCH} data points.` }, '.');
  },
};
