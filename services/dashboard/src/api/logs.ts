import { z } from 'zod';
import { bucketsOf } from '@devtrail/column-store';
import {
  exportLogs,
  FACET_COLUMNS,
  KINDS,
  logLevels,
  MAX_EXPORT_LOGS,
  METADATA_SAMPLE,
  RANGE_BUCKETS,
  readLogFacets,
  readLogRanges,
  readLogs,
  readLogVolume,
  readSurroundingLogs,
  searchTerms,
  type FacetValue,
  type LogFacets,
  type LogFilter,
  type LogRanges,
} from '@devtrail/kinds';
import { route, type RouteGroup } from '@devtrail/http/route';
import { sameKeys } from '@devtrail/http/api-docs';
import { projectOf } from './access.ts';
import { apiTimeRange, logsQuery } from './api-schemas.ts';
import { logExportQuery, logFiltersQuery, logRangesQuery, logVolumeQuery, surroundingQuery } from './explore-schemas.ts';
import { EXPORT_BUSY, EXPORT_SLOTS, EXPORTS_BUSY } from './export-slots.ts';
import { EXPORT_TYPES, exportStream } from './log-export.ts';
import { answers, OPERATOR, PAGED_RANGE_NOTE, projectParams, RANGE_NOTE } from './project-route.ts';
import type { ReadDeps } from './read-deps.ts';
import { AXIS, axisOf, NEXT_CURSOR, SEARCH_NOTE } from './read-notes.ts';

// The logs: the list, its histogram, facets and numeric ranges, an export and the lines around
// one log. Bounded by project, time range and the project's retention; every value a query
// parameter (libs/kinds/src/log/).

/** A log as the read API answers it: derived from the kind's fields (libs/kinds kind.ts). */
export const logRecord = KINDS.log.record.openapi(KINDS.log.docs.recordName);

type LogFiltersQuery = z.output<typeof logFiltersQuery>;
/** The logs reads' filters from their query parameters. */
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

const filterNotes = { q: SEARCH_NOTE, level: 'Comma-separated levels, e.g. warn,error.' };
const facetValue = z.object({ value: z.string(), count: z.number().int() });
const facets = z
  .object({
    columns: z
      .object(Object.fromEntries(FACET_COLUMNS.map((c) => [c, z.array(facetValue)])) as Record<(typeof FACET_COLUMNS)[number], z.ZodArray<typeof facetValue>>)
      .openapi({ description: 'Exact counts over every matching log, most common first (at most 10 each).' }),
    metadata: z
      .array(
        z.object({
          key: z.string(),
          count: z.number().int(),
          numeric: z.boolean().openapi({ description: 'Whether every sampled value of the key is a number: GET /logs/facets/ranges counts it in ranges.' }),
          values: z.array(facetValue),
        }),
      )
      .openapi({
        description: `The most common top-level metadata keys of the newest ${METADATA_SAMPLE.toLocaleString('en')} matching logs, each with its most common values (strings, integers, booleans).`,
      }),
    sampled: z.number().int().openapi({ description: 'How many logs the metadata facets were read from.' }),
  })
  .openapi('LogFacets');
sameKeys<z.infer<typeof facets>, LogFacets>(true);
sameKeys<z.infer<typeof facetValue>, FacetValue>(true);
const ranges = z
  .object({
    key: z.string(),
    min: z.number().nullable().openapi({ description: 'The smallest number the key holds in the matching logs; null: no matching log holds a number there.' }),
    max: z.number().nullable().openapi({ description: 'The largest.' }),
    ranges: z
      .array(
        z.object({
          from: z.number().nullable().openapi({ description: 'Values above this (null: no lower bound).' }),
          to: z.number().nullable().openapi({ description: 'Values up to and including this (null: no upper bound).' }),
          count: z.number().int().openapi({ description: 'Exact: the matching logs the search metadata.<key>:>from metadata.<key>:<=to finds.' }),
        }),
      )
      .openapi({ description: 'In order, split at round numbers; the first and last are open-ended, so every number of the key is in one.' }),
  })
  .openapi('LogRanges');
sameKeys<z.infer<typeof ranges>, LogRanges>(true);
const series = z.array(z.number());

const logsKept = async (d: ReadDeps, projectId: string) => (await d.retentionOf(projectId)).log;

export const LOG_ROUTES: RouteGroup<ReadDeps> = {
  name: 'logs',
  description: 'Logs: the list, its histogram, facets and ranges, an export and surrounding lines; operator token or session.',
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'get',
      path: '/api/projects/:id/logs',
      summary: 'Logs, newest first, cursor-paginated',
      description: PAGED_RANGE_NOTE,
      query: logsQuery,
      notes: filterNotes,
      answers: answers(
        z.object({
          logs: z.array(logRecord),
          next_cursor: NEXT_CURSOR,
          terms: z.array(z.string()).openapi({ description: "The search's words and phrases (not negated) as the UI highlights them." }),
        }),
      ),
      async handle(d, { projectId, query: q }) {
        // A text search may be dear: it waits behind lookups (column-store's READ_PRIORITY).
        const r = await readLogs(q.q ? d.searches : d.reads, { ...logFilter(projectId, q, await logsKept(d, projectId)), cursor: q.cursor, limit: q.limit });
        return { logs: r.logs, next_cursor: r.nextCursor, terms: searchTerms(q.q ?? null) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/logs/volume',
      summary: 'Matching logs per time bucket and level (the logs histogram)',
      description: RANGE_NOTE,
      query: logVolumeQuery,
      notes: { ...filterNotes, buckets: 'At most this many whole-minute buckets over the range.' },
      answers: answers(
        z.object({ ...AXIS, levels: z.object(Object.fromEntries(logLevels.map((l) => [l, series])) as Record<(typeof logLevels)[number], typeof series>) }),
      ),
      async handle(d, { projectId, query: q }) {
        const buckets = bucketsOf(apiTimeRange(q), q.buckets);
        return { ...axisOf(buckets), levels: await readLogVolume(d.searches, logFilter(projectId, q, await logsKept(d, projectId)), buckets) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/logs/facets',
      summary: 'Facets of the matching logs: services, environments, releases, levels and metadata keys with counts',
      description: RANGE_NOTE,
      query: logFiltersQuery,
      notes: filterNotes,
      answers: answers(facets),
      async handle(d, { projectId, query: q }) {
        return await readLogFacets(d.searches, logFilter(projectId, q, await logsKept(d, projectId)));
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/logs/facets/ranges',
      summary: "A numeric metadata key's facet: exact counts of the matching logs in a few ranges of its values",
      description: RANGE_NOTE,
      query: logRangesQuery,
      notes: {
        ...filterNotes,
        key: 'A top-level metadata key (no space, ":", "(", ")" or \'"\'); a key with dots also counts the nested path, as the search does.',
        buckets: `At most this many ranges (${RANGE_BUCKETS.min} to ${RANGE_BUCKETS.max}, default ${RANGE_BUCKETS.default}).`,
      },
      answers: answers(ranges),
      async handle(d, { projectId, query: q }) {
        return await readLogRanges(d.searches, logFilter(projectId, q, await logsKept(d, projectId)), q.key, q.buckets);
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/logs/export',
      summary: 'The matching logs as a file: CSV or NDJSON, newest first, streamed',
      description: `The filters of GET /logs. Sent as an attachment; the body streams page by page. At most ${EXPORT_SLOTS.perProject} export of a project at a time, ${EXPORT_SLOTS.perProcess} per process.`,
      query: logExportQuery,
      notes: {
        ...filterNotes,
        format: "csv (RFC 4180; metadata as its JSON text; a text starting with = + - @ gets a ' before it) or ndjson (one log record per line).",
        limit: `At most this many logs (default and most: ${MAX_EXPORT_LOGS.toLocaleString('en')}).`,
      },
      answers: answers(undefined, (docs) => ({
        429: docs.errorResponse('An export of this project is running.', EXPORT_BUSY, { 'Retry-After': docs.retryAfter }),
        503: docs.errorResponse(`${EXPORT_SLOTS.perProcess} exports are running; or a store is unreachable, or the read ran past its time limit.`, EXPORTS_BUSY, {
          'Retry-After': docs.retryAfter,
        }),
        200: {
          description: 'The logs: a header line then one line per log (csv), or one JSON log record per line (ndjson).',
          content: { 'text/csv': { schema: z.string() }, 'application/x-ndjson': { schema: z.string() } },
        },
      })),
      async handle(d, { projectId, query: q }, _request, reply) {
        const filter = logFilter(projectId, q, await logsKept(d, projectId));
        const release = d.exports.take(projectId);
        try {
          const pages = exportLogs(d.searches, filter, q.limit);
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
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/logs/surrounding',
      summary: 'The logs just before and after one log ("surrounding lines"), oldest first',
      description: 'Within a day either side of the log; the log itself is in the list.',
      query: surroundingQuery,
      notes: {
        timestamp: "The log's timestamp, which locates it.",
        service: 'Only logs of this service.',
        before: 'Logs before it (0 to 200, default 20).',
        after: 'Logs after it (0 to 200, default 20).',
      },
      answers: answers(z.object({ logs: z.array(logRecord) })),
      async handle(d, { projectId, query: q }) {
        const logs = await readSurroundingLogs(d.searches, {
          projectId,
          retentionDays: await logsKept(d, projectId),
          eventId: q.event_id,
          timestamp: q.timestamp,
          service: q.service,
          before: q.before,
          after: q.after,
        });
        return { logs };
      },
    }),
  ],
};
