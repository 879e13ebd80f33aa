import { z } from 'zod';
import {
  MAX_ATTRIBUTE_KEYS,
  MAX_ATTRIBUTE_VALUES,
  MAX_GROUPS,
  MAX_METRIC_NAMES,
  MAX_SERIES_POINTS,
  MAX_STEPS,
  METRIC_AGGREGATIONS,
  metricTypes,
  temporalities,
  type MetricName,
  type MetricSeries,
} from '@devtrail/kinds';
import { describeFields, json, openApiPath, sameKeys, type ApiDocs } from '@devtrail/http/api-docs';
import { apiAnswers } from '../api/access-docs.ts';
import { KINDS } from '@devtrail/kinds';
import { keysQuery, namesQuery, PATHS, pointsQuery, seriesQuery, valuesQuery } from './metrics-schemas.ts';

// The OpenAPI documentation of metrics-routes.ts.

const RANGE = 'from/to: ISO 8601 with offset, or epoch milliseconds. Default range: the 24 hours before `to` (default now).';

export function documentMetricsApi(docs: ApiDocs) {
  const r = docs.registry;
  const { idParam, errors, projectNotFound } = apiAnswers(docs);
  const name = r.register(
    'MetricName',
    z.object({
      name: z.string(),
      type: z.enum(metricTypes),
      unit: z.string(),
      description: z.string(),
      temporality: z.enum(temporalities),
      monotonic: z.boolean(),
      points: z.number().int().openapi({ description: 'Data points in the range.' }),
      last_seen: z.string().datetime(),
    }),
  );
  sameKeys<z.infer<typeof name>, MetricName>(true);
  const group = z.record(z.string()).openapi({ description: 'The group-by keys and this line’s values of them.' });
  const series = r.register(
    'MetricSeries',
    z.object({
      metric: z.string(),
      type: z.enum(metricTypes).nullable().openapi({ description: 'null when the metric has no points.' }),
      unit: z.string(),
      aggregation: z.enum(METRIC_AGGREGATIONS),
      step_seconds: z.number().int(),
      series: z.array(
        z.object({
          group,
          points: z.array(z.object({ time: z.string().datetime().openapi({ description: 'The step’s start.' }), value: z.number().nullable() })),
        }),
      ),
      exemplars: z.array(z.object({ time: z.string(), value: z.number(), trace_id: z.string(), span_id: z.string(), group })),
      truncated: z
        .boolean()
        .openapi({ description: `More than ${MAX_SERIES_POINTS} points in the range, or more than ${MAX_GROUPS} groups: narrow the range or the filter.` }),
    }),
  );
  sameKeys<z.infer<typeof series>, MetricSeries>(true);
  const read = (path: string, summary: string, query: z.AnyZodObject, ok: z.ZodTypeAny) =>
    r.registerPath({
      method: 'get',
      path: openApiPath(path),
      tags: ['read'],
      summary,
      description: RANGE,
      security: [{ operatorToken: [] }],
      request: { params: idParam, query },
      responses: { 200: { description: 'OK', ...json(ok) }, ...errors(projectNotFound) },
    });
  read(PATHS.names, `The metrics sent in the range, by name, at most ${MAX_METRIC_NAMES}`, namesQuery, z.object({ metrics: z.array(name) }));
  read(
    PATHS.keys,
    `A metric's attribute keys (attributes.<key>, resource.<key>) with their count of distinct values, at most ${MAX_ATTRIBUTE_KEYS}`,
    describeFields(keysQuery, { metric: 'The metric’s name.' }),
    z.object({ keys: z.array(z.object({ key: z.string(), values: z.number().int() })) }),
  );
  read(
    PATHS.values,
    `The most frequent values of one attribute key of a metric, at most ${MAX_ATTRIBUTE_VALUES}`,
    describeFields(valuesQuery, { key: 'attributes.<key> (or the bare key) or resource.<key>.' }),
    z.object({ values: z.array(z.object({ value: z.string(), points: z.number().int() })) }),
  );
  const point = r.register(KINDS.metric.docs.recordName, KINDS.metric.record);
  read(
    PATHS.points,
    'A metric’s data points as stored, newest first (limit 1..1000, default 100)',
    describeFields(pointsQuery, { metric: 'The metric’s name.' }),
    z.object({ points: z.array(point) }),
  );
  read(
    PATHS.series,
    'A metric as time series: filtered, grouped, one aggregation per step (docs/api.md#metrics)',
    describeFields(seriesQuery, {
      aggregation:
        'sum, avg, min, max, count; increase and rate (per second) of a sum or a histogram’s count, resets handled; p50, p75, p90, p95, p99 of a histogram or a summary.',
      step: `Seconds per step; default about 120 steps over the range; made larger past ${MAX_STEPS} steps.`,
      group_by: 'Comma-separated keys: service, environment, release, scope, attributes.<key> (or the bare key), resource.<key>.',
      filter: 'The search syntax: words, service:, environment:, release:, scope:, attribute keys, resource.<key>.',
    }),
    series,
  );
  return { name: 'metrics', description: 'Metrics: names, attributes and time series; operator token. Every query is bounded by project, range and retention.' };
}
