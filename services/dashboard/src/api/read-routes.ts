import type { FastifyInstance } from 'fastify';
import {
  membersOf,
  readErrorGroups,
  readErrors,
  readGroupChart,
  readGroupReleases,
  readGroupTags,
  readLlmUsage,
  readLogs,
  readReleaseHealth,
  readSpans,
  readTrace,
  readIngestionRates,
  searchTerms,
  searchTraces,
} from '@devtrail/kinds';
import { errorGroupsQuery, traceSearchQuery } from './explore-schemas.ts';
import { logFilter } from './explore-routes.ts';
import type { ColumnStore } from '@devtrail/column-store';
import { traceIdParam, errorsQuery, fingerprintParam, ingestionQuery, logsQuery, apiTimeRange, rangeQuery, releaseHealthQuery, tracesQuery } from './api-schemas.ts';
import { notFound } from '@devtrail/http';
import { projectOf } from './access.ts';
import type { LlmPriceTable } from '@devtrail/config';
import { defaultPrices, pricesOf } from './llm-estimates.ts';
import type { RetentionOf } from '../data/project-retention.ts';
import { noMerges, type MergesOf } from './group-merges.ts';

// /api/projects/:id/...: what the dashboard reads. Every query is bounded by project,
// time range and the project's retention, and runs with ClickHouse query parameters (each
// kind's read.ts in libs/kinds).
// read-docs.ts documents each path.

export const READ_PATHS = {
  logs: '/api/projects/:id/logs',
  errors: '/api/projects/:id/errors',
  errorGroups: '/api/projects/:id/error-groups',
  errorGroup: '/api/projects/:id/error-groups/:fingerprint',
  traces: '/api/projects/:id/traces',
  trace: '/api/projects/:id/traces/:traceId',
  spans: '/api/projects/:id/spans',
  llmUsage: '/api/projects/:id/llm-usage',
  releaseHealth: '/api/projects/:id/releases/health',
  ingestion: '/api/projects/:id/ingestion',
};

export function registerReadRoutes(
  app: FastifyInstance,
  stores: { reads: ColumnStore; searches: ColumnStore },
  retentionOf: RetentionOf,
  lagOf?: () => Promise<unknown>,
  prices: LlmPriceTable = defaultPrices(),
  mergesOf: MergesOf = noMerges,
): void {
  const store = stores.reads;
  app.get(READ_PATHS.logs, async (request) => {
    const projectId = await projectOf(request);
    const q = logsQuery.parse(request.query);
    // A text search may be dear: it waits behind lookups (column-store's READ_PRIORITY).
    const r = await readLogs(q.q ? stores.searches : store, { ...logFilter(projectId, q, (await retentionOf(projectId)).log), cursor: q.cursor, limit: q.limit });
    return { logs: r.logs, next_cursor: r.nextCursor, terms: searchTerms(q.q ?? null) };
  });

  app.get(READ_PATHS.errors, async (request) => {
    const projectId = await projectOf(request);
    const q = errorsQuery.parse(request.query);
    const r = await readErrors(store, {
      projectId,
      retentionDays: (await retentionOf(projectId)).error,
      // a group's occurrences include those of the groups merged into it
      fingerprints: q.fingerprint ? membersOf(q.fingerprint, await mergesOf(projectId)) : undefined,
      traceId: q.trace_id,
      range: apiTimeRange(q),
      cursor: q.cursor,
      limit: q.limit,
    });
    return { errors: r.errors, next_cursor: r.nextCursor };
  });

  app.get(READ_PATHS.errorGroups, async (request) => {
    const projectId = await projectOf(request);
    const q = errorGroupsQuery.parse(request.query);
    return {
      groups: await readErrorGroups(store, {
        projectId,
        retentionDays: (await retentionOf(projectId)).error,
        range: apiTimeRange(q),
        service: q.service,
        environment: q.environment,
        search: q.q,
        sort: q.sort,
        merges: await mergesOf(projectId),
        limit: q.limit,
      }),
    };
  });

  app.get(READ_PATHS.errorGroup, async (request) => {
    const projectId = await projectOf(request);
    const asked = fingerprintParam.parse(request.params).fingerprint;
    const q = rangeQuery.parse(request.query);
    const retentionDays = (await retentionOf(projectId)).error;
    const merges = await mergesOf(projectId);
    // A group merged into another is read as that one (its answer names the target).
    const fingerprint = merges.get(asked) ?? asked;
    const [group] = await readErrorGroups(store, { projectId, retentionDays, fingerprint, merges, range: { fromMs: 0 } });
    if (!group) throw notFound('Error group');
    const scope = { projectId, retentionDays, fingerprints: membersOf(group.fingerprint, merges) };
    const [recent, tags, releases, chart] = await Promise.all([
      readErrors(store, { ...scope, range: { fromMs: Date.parse(group.first_seen) }, limit: 20 }),
      readGroupTags(store, scope),
      readGroupReleases(store, scope),
      readGroupChart(store, { ...scope, range: { fromMs: q.from ?? Date.parse(group.first_seen), toMs: q.to } }),
    ]);
    return { group, merged: scope.fingerprints.slice(1), tags, releases, chart, recent: recent.errors, next_cursor: recent.nextCursor };
  });

  app.get(READ_PATHS.traces, async (request) => {
    const projectId = await projectOf(request);
    const q = traceSearchQuery.parse(request.query);
    const traces = await searchTraces(store, {
      projectId,
      retentionDays: (await retentionOf(projectId)).span,
      range: apiTimeRange(q),
      operation: q.operation,
      service: q.service,
      environment: q.environment,
      minDurationMs: q.min_duration_ms,
      maxDurationMs: q.max_duration_ms,
      status: q.status,
      search: q.q,
      sort: q.sort,
      limit: q.limit,
    });
    return { traces };
  });

  app.get(READ_PATHS.trace, async (request) => {
    const projectId = await projectOf(request);
    const { traceId } = traceIdParam.parse(request.params);
    const spans = await readTrace(store, projectId, traceId, (await retentionOf(projectId)).span);
    if (spans.length === 0) throw notFound('Trace');
    return { trace_id: traceId, spans };
  });

  app.get(READ_PATHS.spans, async (request) => {
    const projectId = await projectOf(request);
    const q = tracesQuery.parse(request.query);
    return {
      spans: await readSpans(store, { projectId, retentionDays: (await retentionOf(projectId)).span, range: apiTimeRange(q), operation: q.operation, limit: q.limit }),
    };
  });

  app.get(READ_PATHS.releaseHealth, async (request) => {
    const projectId = await projectOf(request);
    const q = releaseHealthQuery.parse(request.query);
    return {
      releases: await readReleaseHealth(store, { projectId, retentionDays: (await retentionOf(projectId)).session, range: apiTimeRange(q), environment: q.environment }),
    };
  });
  app.get(READ_PATHS.llmUsage, async (request) => {
    const projectId = await projectOf(request);
    const q = rangeQuery.parse(request.query);
    return { usage: await readLlmUsage(store, { projectId, retentionDays: (await retentionOf(projectId)).llm, prices: pricesOf(prices), range: apiTimeRange(q) }) };
  });

  app.get(READ_PATHS.ingestion, async (request) => {
    const projectId = await projectOf(request);
    const q = ingestionQuery.parse(request.query);
    return { per_minute: await readIngestionRates(store, projectId, q.minutes), consumers: lagOf ? await lagOf().catch(() => null) : null };
  });
}
