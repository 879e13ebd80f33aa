import { z } from 'zod';
import { rangeOrDefault } from '@devtrail/column-store';
import { badRequest } from '@devtrail/http';
import { route, type RouteGroup } from '@devtrail/http/route';
import {
  MAX_ATTRIBUTE_KEYS,
  MAX_ATTRIBUTE_VALUES,
  MAX_METRIC_NAMES,
  MAX_STEPS,
  MetricQueryError,
  readMetricAttributeKeys,
  readMetricAttributeValues,
  readMetricNames,
  readMetricPoints,
  readMetricSeries,
} from '@devtrail/kinds';
import { projectOf } from '../api/access.ts';
import { apiTimeRange } from '../api/api-schemas.ts';
import { answers, OPERATOR, projectParams, RANGE_NOTE } from '../api/project-route.ts';
import type { ReadDeps } from '../api/read-deps.ts';
import { metricName, metricPoint, metricSeries } from './metrics-answers.ts';
import { keysQuery, namesQuery, pointsQuery, seriesQuery, valuesQuery } from './metrics-schemas.ts';

// The metrics read API (docs/api.md#metrics): the metrics a project sent, their attribute keys and
// values, their points, and a metric as time series. Every query is bounded by project, range, the
// project's retention of metrics and a row or group limit (libs/kinds/src/metric/).

/** A series' default step: about 120 steps over the range, in whole seconds. */
const stepOf = (fromMs: number, toMs: number) => Math.max(1, Math.ceil((toMs - fromMs) / 120 / 1000));

/** The project and its retention of metrics, every read's bounds. */
const scope = async (d: ReadDeps, projectId: string) => ({ projectId, retentionDays: (await d.retentionOf(projectId)).metric });

const METRIC_NOTE = { metric: "The metric's name." };

export const METRIC_ROUTES: RouteGroup<ReadDeps> = {
  name: 'metrics',
  description: 'Metrics: names, attributes, points and time series; operator token or session.',
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'get',
      path: '/api/projects/:id/metrics',
      summary: `The metrics sent in the range, by name, at most ${MAX_METRIC_NAMES}`,
      description: RANGE_NOTE,
      query: namesQuery,
      answers: answers(z.object({ metrics: z.array(metricName) })),
      async handle(d, { projectId, query: q }) {
        return { metrics: await readMetricNames(d.reads, { ...(await scope(d, projectId)), range: apiTimeRange(q) }) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/metrics/attributes',
      summary: `A metric's attribute keys (attributes.<key>, resource.<key>) with their count of distinct values, at most ${MAX_ATTRIBUTE_KEYS}`,
      description: RANGE_NOTE,
      query: keysQuery,
      notes: METRIC_NOTE,
      answers: answers(z.object({ keys: z.array(z.object({ key: z.string(), values: z.number().int() })) })),
      async handle(d, { projectId, query: q }) {
        return { keys: await readMetricAttributeKeys(d.reads, { ...(await scope(d, projectId)), range: apiTimeRange(q), metric: q.metric }) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/metrics/attribute-values',
      summary: `The most frequent values of one attribute key of a metric, at most ${MAX_ATTRIBUTE_VALUES}`,
      description: RANGE_NOTE,
      query: valuesQuery,
      notes: { ...METRIC_NOTE, key: 'attributes.<key> (or the bare key) or resource.<key>.' },
      answers: answers(z.object({ values: z.array(z.object({ value: z.string(), points: z.number().int() })) })),
      async handle(d, { projectId, query: q }) {
        return { values: await readMetricAttributeValues(d.reads, { ...(await scope(d, projectId)), range: apiTimeRange(q), metric: q.metric, key: q.key }) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/metrics/points',
      summary: "A metric's data points as stored, newest first",
      description: `${RANGE_NOTE} limit: 1..1000, default 100.`,
      query: pointsQuery,
      notes: METRIC_NOTE,
      answers: answers(z.object({ points: z.array(metricPoint) })),
      async handle(d, { projectId, query: q }) {
        return { points: await readMetricPoints(d.reads, { ...(await scope(d, projectId)), range: apiTimeRange(q), metric: q.metric, limit: q.limit }) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/metrics/series',
      summary: 'A metric as time series: filtered, grouped, one aggregation per step',
      description: `from/to: ISO 8601 with offset, or epoch milliseconds. Default range: the 24 hours before \`to\` (default now). docs/api.md#metrics.`,
      query: seriesQuery,
      notes: {
        ...METRIC_NOTE,
        aggregation:
          "sum, avg, min, max, count; increase and rate (per second) of a sum or a histogram's count, resets handled; p50, p75, p90, p95, p99 of a histogram or a summary.",
        step: `Seconds per step; default about 120 steps over the range; made larger past ${MAX_STEPS} steps.`,
        group_by: 'Comma-separated keys: service, environment, release, scope, attributes.<key> (or the bare key), resource.<key>.',
        filter: 'The search syntax: words, service:, environment:, release:, scope:, attribute keys, resource.<key>.',
      },
      answers: answers(metricSeries),
      async handle(d, { projectId, query: q }) {
        const s = await scope(d, projectId);
        // A chart ends now when no end is given (no step past the present).
        const range = rangeOrDefault(apiTimeRange(q), Date.now(), Date.now());
        try {
          return await readMetricSeries(d.reads, {
            ...s,
            metric: q.metric,
            range,
            stepMs: (q.step ?? stepOf(range.fromMs, range.toMs)) * 1000,
            aggregation: q.aggregation,
            groupBy: q.group_by,
            filter: q.filter ?? null,
          });
        } catch (err) {
          if (err instanceof MetricQueryError) throw badRequest(err.message, 'an aggregation this metric has', q.aggregation, ['aggregation']);
          throw err;
        }
      },
    }),
  ],
};
