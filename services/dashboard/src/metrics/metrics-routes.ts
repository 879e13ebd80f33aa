import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '@devtrail/http';
import { MetricQueryError, readMetricAttributeKeys, readMetricAttributeValues, readMetricNames, readMetricPoints, readMetricSeries } from '@devtrail/kinds';
import { rangeOrDefault, type ColumnStore } from '@devtrail/column-store';
import { apiTimeRange } from '../api/api-schemas.ts';
import { projectOf } from '../api/access.ts';
import type { RetentionOf } from '../data/project-retention.ts';
import { keysQuery, namesQuery, PATHS, pointsQuery, seriesQuery, valuesQuery } from './metrics-schemas.ts';

// The metrics read API (docs/api.md#metrics): the metrics a project sent, their attribute keys
// and values, and a metric as time series. Every query is bounded by project, range, the
// project's retention of metrics and a row or group limit (libs/kinds metric/).

/** A series' default step: about 120 steps over the range, in whole seconds. */
const stepOf = (fromMs: number, toMs: number) => Math.max(1, Math.ceil((toMs - fromMs) / 120 / 1000));

export function registerMetricRoutes(app: FastifyInstance, store: ColumnStore, retentionOf: RetentionOf): void {
  const scope = async (request: FastifyRequest) => {
    const projectId = await projectOf(request);
    return { projectId, retentionDays: (await retentionOf(projectId)).metric };
  };

  app.get(PATHS.names, async (request) => {
    const q = namesQuery.parse(request.query);
    return { metrics: await readMetricNames(store, { ...(await scope(request)), range: apiTimeRange(q) }) };
  });

  app.get(PATHS.keys, async (request) => {
    const q = keysQuery.parse(request.query);
    return { keys: await readMetricAttributeKeys(store, { ...(await scope(request)), range: apiTimeRange(q), metric: q.metric }) };
  });

  app.get(PATHS.values, async (request) => {
    const q = valuesQuery.parse(request.query);
    return { values: await readMetricAttributeValues(store, { ...(await scope(request)), range: apiTimeRange(q), metric: q.metric, key: q.key }) };
  });

  app.get(PATHS.points, async (request) => {
    const q = pointsQuery.parse(request.query);
    return { points: await readMetricPoints(store, { ...(await scope(request)), range: apiTimeRange(q), metric: q.metric, limit: q.limit }) };
  });

  app.get(PATHS.series, async (request) => {
    const q = seriesQuery.parse(request.query);
    const s = await scope(request);
    // A chart ends now when no end is given (no step past the present).
    const range = rangeOrDefault(apiTimeRange(q), Date.now(), Date.now());
    try {
      return await readMetricSeries(store, {
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
  });
}
