import type { FastifyInstance } from 'fastify';
import type { ColumnStore } from '@devtrail/column-store';
import { bucketsOf, rangeOrDefault } from '@devtrail/column-store';
import {
  readLlmByMetadata,
  readLlmCalls,
  readLlmLatency,
  readLlmMetadataKeys,
  exportLogs,
  readLlmSessions,
  readLogFacets,
  readLogRanges,
  readServiceMap,
  readSpanServices,
  readLogVolume,
  readSurroundingLogs,
  type LlmCallFilter,
  type LogFilter,
} from '@devtrail/kinds';
import type { LlmPriceTable } from '@devtrail/config';
import { pricesOf } from './llm-estimates.ts';
import { apiTimeRange } from './api-schemas.ts';
import { projectOf } from './access.ts';
import {
  llmCallsQuery,
  llmFiltersQuery,
  llmLatencyQuery,
  llmMetadataQuery,
  llmSessionsQuery,
  logExportQuery,
  logFiltersQuery,
  logRangesQuery,
  logVolumeQuery,
  surroundingQuery,
} from './explore-schemas.ts';
import { EXPORT_TYPES, exportStream } from './log-export.ts';
import { exportSlots } from './export-slots.ts';
import { rangeOnlyQuery } from './api-schemas.ts';
import type { RetentionOf } from '../data/project-retention.ts';

// The explorer's reads beside read-routes.ts: the logs histogram, facets and surrounding
// lines, LLM calls one by one (sorted and searched as asked), by metadata, by session and
// latency over time, the services spans ran in (the trace search's picker) and the service map.
// Bounded by project, time range and the project's retention; every value a query parameter. explore-docs.ts
// documents each path.

export const EXPLORE_PATHS = {
  logVolume: '/api/projects/:id/logs/volume',
  logFacets: '/api/projects/:id/logs/facets',
  logRanges: '/api/projects/:id/logs/facets/ranges',
  logSurrounding: '/api/projects/:id/logs/surrounding',
  llmCalls: '/api/projects/:id/llm-calls',
  llmMetadata: '/api/projects/:id/llm-calls/by-metadata',
  llmMetadataKeys: '/api/projects/:id/llm-calls/metadata-keys',
  llmLatency: '/api/projects/:id/llm-calls/latency',
  logExport: '/api/projects/:id/logs/export',
  spanServices: '/api/projects/:id/spans/services',
  serviceMap: '/api/projects/:id/service-map',
  llmSessions: '/api/projects/:id/llm-sessions',
};

type LogFiltersQuery = ReturnType<typeof logFiltersQuery.parse>;
/** The logs reads' filters from their query parameters (GET /logs takes the same). */
export const logFilter = (projectId: string, q: LogFiltersQuery, retentionDays: number): LogFilter => ({
  projectId,
  retentionDays,
  range: apiTimeRange(q),
  levels: q.level,
  service: q.service,
  environment: q.environment,
  release: q.release,
  traceId: q.trace_id,
  search: q.q,
});
type LlmFiltersQuery = Partial<ReturnType<typeof llmFiltersQuery.parse>>;
const llmFilter = (projectId: string, q: LlmFiltersQuery, retentionDays: number, prices: LlmPriceTable): LlmCallFilter => ({
  projectId,
  retentionDays,
  prices: pricesOf(prices),
  range: apiTimeRange(q),
  model: q.model,
  service: q.service,
  metadata: q.metadata,
  search: q.q,
  session: q.session,
});
/** The range a read covered, as epoch milliseconds (its defaults applied). */
const rangeOf = (r: { fromMs?: number; toMs?: number }) => {
  const { fromMs, toMs } = rangeOrDefault(r);
  return { from: fromMs, to: toMs };
};
const axisOf = (b: { fromMs: number; stepMs: number; count: number }) => ({ from: b.fromMs, step_ms: b.stepMs, buckets: b.count });

export function registerExploreRoutes(app: FastifyInstance, store: ColumnStore, retentionOf: RetentionOf, prices: LlmPriceTable): void {
  const exports = exportSlots();
  const logsKept = async (projectId: string) => (await retentionOf(projectId)).log;
  const llmKept = async (projectId: string) => (await retentionOf(projectId)).llm;
  app.get(EXPLORE_PATHS.logVolume, async (request) => {
    const projectId = await projectOf(request);
    const q = logVolumeQuery.parse(request.query);
    const buckets = bucketsOf(apiTimeRange(q), q.buckets);
    return { ...axisOf(buckets), levels: await readLogVolume(store, logFilter(projectId, q, await logsKept(projectId)), buckets) };
  });

  app.get(EXPLORE_PATHS.logFacets, async (request) => {
    const projectId = await projectOf(request);
    const q = logFiltersQuery.parse(request.query);
    return await readLogFacets(store, logFilter(projectId, q, await logsKept(projectId)));
  });

  app.get(EXPLORE_PATHS.logRanges, async (request) => {
    const projectId = await projectOf(request);
    const q = logRangesQuery.parse(request.query);
    return await readLogRanges(store, logFilter(projectId, q, await logsKept(projectId)), q.key, q.buckets);
  });

  app.get(EXPLORE_PATHS.logExport, async (request, reply) => {
    const projectId = await projectOf(request);
    const q = logExportQuery.parse(request.query);
    const filter = logFilter(projectId, q, await logsKept(projectId));
    const release = exports.take(projectId);
    try {
      const pages = exportLogs(store, filter, q.limit);
      const first = await pages.next();
      const name = `logs-${new Date().toISOString().replace(/[:.]/g, '-')}.${q.format}`;
      const body = exportStream(first.done ? undefined : first.value, { [Symbol.asyncIterator]: () => pages }, q.format);
      // Freed as the last byte is read (end), or when the client goes away (close).
      body.once('end', release).once('close', release);
      return reply.type(EXPORT_TYPES[q.format]).header('content-disposition', `attachment; filename="${name}"`).send(body);
    } catch (err) {
      release();
      throw err;
    }
  });

  app.get(EXPLORE_PATHS.logSurrounding, async (request) => {
    const projectId = await projectOf(request);
    const q = surroundingQuery.parse(request.query);
    const logs = await readSurroundingLogs(store, {
      projectId,
      retentionDays: await logsKept(projectId),
      eventId: q.event_id,
      timestamp: q.timestamp,
      service: q.service,
      before: q.before,
      after: q.after,
    });
    return { logs };
  });

  app.get(EXPLORE_PATHS.spanServices, async (request) => {
    const projectId = await projectOf(request);
    const q = rangeOnlyQuery.parse(request.query);
    return { services: await readSpanServices(store, { projectId, retentionDays: (await retentionOf(projectId)).span, range: apiTimeRange(q) }) };
  });

  app.get(EXPLORE_PATHS.serviceMap, async (request) => {
    const projectId = await projectOf(request);
    const q = rangeOnlyQuery.parse(request.query);
    const range = apiTimeRange(q);
    const edges = await readServiceMap(store, { projectId, retentionDays: (await retentionOf(projectId)).span, range });
    return { ...rangeOf(range), edges };
  });

  app.get(EXPLORE_PATHS.llmCalls, async (request) => {
    const projectId = await projectOf(request);
    const q = llmCallsQuery.parse(request.query);
    const r = await readLlmCalls(store, { ...llmFilter(projectId, q, await llmKept(projectId), prices), cursor: q.cursor, limit: q.limit, sort: q.sort, order: q.order });
    return { calls: r.calls, next_cursor: r.nextCursor };
  });

  app.get(EXPLORE_PATHS.llmSessions, async (request) => {
    const projectId = await projectOf(request);
    const q = llmSessionsQuery.parse(request.query);
    return { sessions: await readLlmSessions(store, { ...llmFilter(projectId, q, await llmKept(projectId), prices), limit: q.limit }) };
  });

  app.get(EXPLORE_PATHS.llmMetadata, async (request) => {
    const projectId = await projectOf(request);
    const q = llmMetadataQuery.parse(request.query);
    const rows = await readLlmByMetadata(store, { ...llmFilter(projectId, q, await llmKept(projectId), prices), key: q.key, limit: q.limit, sort: q.sort });
    return { key: q.key, values: rows };
  });

  app.get(EXPLORE_PATHS.llmMetadataKeys, async (request) => {
    const projectId = await projectOf(request);
    const q = llmFiltersQuery.omit({ cursor: true, limit: true }).parse(request.query);
    return { keys: await readLlmMetadataKeys(store, llmFilter(projectId, q, await llmKept(projectId), prices)) };
  });

  app.get(EXPLORE_PATHS.llmLatency, async (request) => {
    const projectId = await projectOf(request);
    const q = llmLatencyQuery.parse(request.query);
    const buckets = bucketsOf(apiTimeRange(q), q.buckets);
    return { ...axisOf(buckets), ...(await readLlmLatency(store, llmFilter(projectId, q, await llmKept(projectId), prices), buckets)) };
  });
}
