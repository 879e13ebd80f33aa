import { z } from 'zod';
import { KINDS, MAX_GROUPS, MAX_SERIES_POINTS, METRIC_AGGREGATIONS, metricTypes, temporalities, type MetricName, type MetricSeries } from '@devtrail/kinds';
import { sameKeys } from '@devtrail/http/api-docs';
import '@devtrail/http/route';

// What the metrics read API answers (metrics.ts), as documented and checked against the types of
// the reads they mirror (libs/kinds/src/metric/).

export const metricName = z
  .object({
    name: z.string(),
    type: z.enum(metricTypes),
    unit: z.string(),
    description: z.string(),
    temporality: z.enum(temporalities),
    monotonic: z.boolean(),
    points: z.number().int().openapi({ description: 'Data points in the range.' }),
    last_seen: z.string().datetime(),
  })
  .openapi('MetricName');
sameKeys<z.infer<typeof metricName>, MetricName>(true);

const group = z.record(z.string()).openapi({ description: "The group-by keys and this line's values of them." });

export const metricSeries = z
  .object({
    metric: z.string(),
    type: z.enum(metricTypes).nullable().openapi({ description: 'null when the metric has no points.' }),
    unit: z.string(),
    aggregation: z.enum(METRIC_AGGREGATIONS),
    step_seconds: z.number().int(),
    series: z.array(
      z.object({
        group,
        points: z.array(z.object({ time: z.string().datetime().openapi({ description: "The step's start." }), value: z.number().nullable() })),
      }),
    ),
    exemplars: z.array(z.object({ time: z.string(), value: z.number(), trace_id: z.string(), span_id: z.string(), group })),
    truncated: z
      .boolean()
      .openapi({ description: `More than ${MAX_SERIES_POINTS} points in the range, or more than ${MAX_GROUPS} groups: narrow the range or the filter.` }),
  })
  .openapi('MetricSeries');
sameKeys<z.infer<typeof metricSeries>, MetricSeries>(true);

export const metricPoint = KINDS.metric.record.openapi(KINDS.metric.docs.recordName);
