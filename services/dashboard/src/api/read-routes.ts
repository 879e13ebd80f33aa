import type { FastifyInstance } from 'fastify';
import { readErrorGroups, readErrors, readLlmUsage, readLogs, readSpans, readTrace, readIngestionRates, type ColumnStore } from '@devtrail/column-store';
import { z } from 'zod';
import { traceIdParam, errorsQuery, logsQuery, apiTimeRange, rangeQuery, tracesQuery, httpError } from '@devtrail/contract';
import { projectOf } from './access.ts';
import type { LlmPriceTable } from '@devtrail/config';
import { defaultPrices, withEstimates } from './llm-estimates.ts';

// /api/projects/:id/...: what the dashboard reads. Every query is bounded by project and
// time range and runs with ClickHouse query parameters (column-store/src/reads).

export function registerReadRoutes(app: FastifyInstance, store: ColumnStore, lagOf?: () => Promise<unknown>, prices: LlmPriceTable = defaultPrices()): void {
  app.get('/api/projects/:id/logs', async (request) => {
    const projectId = await projectOf(request);
    const q = logsQuery.parse(request.query);
    const r = await readLogs(store, {
      projectId,
      range: apiTimeRange(q),
      levels: q.level,
      service: q.service,
      environment: q.environment,
      release: q.release,
      traceId: q.trace_id,
      text: q.q,
      cursor: q.cursor,
      limit: q.limit,
    });
    return { logs: r.logs, next_cursor: r.nextCursor };
  });

  app.get('/api/projects/:id/errors', async (request) => {
    const projectId = await projectOf(request);
    const q = errorsQuery.parse(request.query);
    const r = await readErrors(store, { projectId, fingerprint: q.fingerprint, range: apiTimeRange(q), cursor: q.cursor, limit: q.limit });
    return { errors: r.errors, next_cursor: r.nextCursor };
  });

  app.get('/api/projects/:id/error-groups', async (request) => {
    const projectId = await projectOf(request);
    const q = rangeQuery.parse(request.query);
    return { groups: await readErrorGroups(store, { projectId, range: apiTimeRange(q), limit: q.limit }) };
  });

  app.get('/api/projects/:id/error-groups/:fingerprint', async (request) => {
    const projectId = await projectOf(request);
    const { fingerprint } = z.object({ fingerprint: z.string().regex(/^[0-9a-f]{64}$/) }).parse(request.params);
    const [group] = await readErrorGroups(store, { projectId, fingerprint, range: { fromMs: 0 } });
    if (!group) throw httpError(404, 'Error group not found');
    const recent = await readErrors(store, { projectId, fingerprint, range: { fromMs: Date.parse(group.first_seen) }, limit: 20 });
    return { group, recent: recent.errors };
  });

  app.get('/api/projects/:id/traces', async (request) => {
    const projectId = await projectOf(request);
    const q = tracesQuery.parse(request.query);
    return { traces: await readSpans(store, { projectId, range: apiTimeRange(q), operation: q.operation, rootsOnly: true, limit: q.limit }) };
  });

  app.get('/api/projects/:id/traces/:traceId', async (request) => {
    const projectId = await projectOf(request);
    const { traceId } = traceIdParam.parse(request.params);
    const spans = await readTrace(store, projectId, traceId);
    if (spans.length === 0) throw httpError(404, 'Trace not found');
    return { trace_id: traceId, spans };
  });

  app.get('/api/projects/:id/spans', async (request) => {
    const projectId = await projectOf(request);
    const q = tracesQuery.parse(request.query);
    return { spans: await readSpans(store, { projectId, range: apiTimeRange(q), operation: q.operation, limit: q.limit }) };
  });

  app.get('/api/projects/:id/llm-usage', async (request) => {
    const projectId = await projectOf(request);
    const q = rangeQuery.parse(request.query);
    return { usage: withEstimates(await readLlmUsage(store, { projectId, range: apiTimeRange(q) }), prices) };
  });

  app.get('/api/projects/:id/ingestion', async (request) => {
    const projectId = await projectOf(request);
    const q = z.object({ minutes: z.coerce.number().int().min(1).max(1440).default(60) }).parse(request.query);
    return { per_minute: await readIngestionRates(store, projectId, q.minutes), consumers: lagOf ? await lagOf().catch(() => null) : null };
  });
}
