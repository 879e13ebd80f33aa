import { z } from 'zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ColumnStore } from '@devtrail/column-store';
import { badRequest, httpError, malformedJson, notFound, toHttpAnswer } from '@devtrail/http';
import { route, type RouteGroup } from '@devtrail/http/route';
import type { SourceMapInfo, SourceMapsRepo } from '@devtrail/relational-store';
import { urlKey, type MapBudget, type MapPool } from '@devtrail/source-maps';
import { projectOf } from '../api/access.ts';
import { fingerprintParam } from '../api/api-schemas.ts';
import { answers, OPERATOR, projectAnd, projectParams } from '../api/project-route.ts';
import { symbolicatedQuery } from '../api/triage-schemas.ts';
import type { RetentionOf } from '../data/project-retention.ts';
import { sourceMapDelete, sourceMapFields, sourceMapList, sourceMapUpload } from './schemas.ts';
import { budgetAnswer, symbolicate, type FailedMaps } from './symbolicate.ts';

// Source maps (docs/source-maps.md): upload per release and file URL (a project's upload
// token may upload its own project's maps, as may the operator and members), list, delete;
// and a group's stack symbolicated for display. Every parse, decode and lookup of a map runs
// in the source-map worker (MapPool: its own heap and time limits), never on this event loop:
// the upload's body is taken as bytes and handed over whole.

export interface SourceMapLimits {
  maxBytes: number;
  maxFilesPerRelease: number;
  maxProjectBytes: number;
  /** The source-map worker's heap, cache and time (docs/source-maps.md, "Budgets"). */
  budget: Omit<MapBudget, 'queue'> & { queue: number };
}

export interface SourceMapDeps {
  repo: SourceMapsRepo;
  limits: SourceMapLimits;
  pool: MapPool;
  store: ColumnStore;
  retentionOf: RetentionOf;
  failed: FailedMaps;
}

export const infoJson = (i: SourceMapInfo) => ({
  id: i.id,
  release: i.release,
  url: i.urlKey,
  debug_id: i.debugId,
  bytes: i.bytes,
  stored_bytes: i.storedBytes,
  created_at: i.createdAt,
});

const sourceMap = z
  .object({
    id: z.string().uuid(),
    release: z.string(),
    url: z.string(),
    debug_id: z.string().nullable(),
    bytes: z.number().int(),
    stored_bytes: z.number().int(),
    created_at: z.string().datetime(),
  })
  .openapi('SourceMap');
const frame = z.object({
  raw: z.string(),
  minified: z.object({ function: z.string(), url: z.string(), line: z.number().int(), column: z.number().int() }).nullable(),
  original: z
    .object({
      file: z.string(),
      line: z.number().int(),
      column: z.number().int(),
      function: z.string(),
      context: z.object({ start: z.number().int(), lines: z.array(z.string()) }).nullable(),
    })
    .nullable(),
});

/** Who may upload, list and delete maps: the operator, members, and the project's upload tokens (never its API key). */
const UPLOADERS: Record<string, string[]>[] = [{ operatorToken: [] }, { uploadToken: [] }];
const bodyLimit = (limits: SourceMapLimits) => limits.maxBytes + 64 * 1024;
const tooLarge = (limits: SourceMapLimits) => httpError(413, `Source map too large (limit ${limits.maxBytes} bytes, SOURCE_MAP_MAX_BYTES)`);

/** The upload scope: bodies taken as bytes, counted as they stream in (413 past the limit, before it is all held); the worker parses them. */
export function takeMapsAsBytes(app: FastifyInstance, limits: SourceMapLimits): void {
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: bodyLimit(limits) }, (_request, body, done) => done(null, body));
  app.setErrorHandler((err, _request, reply) => {
    const h = (err as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? tooLarge(limits) : toHttpAnswer(err);
    return reply.code(h.status).headers(h.headers).send(h.body);
  });
}

/** A project at its byte limit takes no more maps. */
async function notFull(d: SourceMapDeps, request: FastifyRequest) {
  const projectId = await projectOf(request);
  const usage = await d.repo.usage(projectId);
  if (usage.storedBytes >= d.limits.maxProjectBytes)
    throw httpError(
      413,
      `The project holds ${usage.storedBytes} bytes of source maps (limit SOURCE_MAP_MAX_PROJECT_BYTES ${d.limits.maxProjectBytes}): delete old releases`,
    );
}

export const SOURCE_MAP_ROUTES: RouteGroup<SourceMapDeps> = {
  name: 'source maps',
  description: 'Source maps: uploads by release and file, and a group’s stack at its original source (docs/source-maps.md).',
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'post',
      path: '/api/projects/:id/source-maps',
      summary: 'Upload a source map for a release and file URL (an upload token may upload; the API key may not)',
      security: UPLOADERS,
      body: sourceMapUpload,
      bodyAs: 'bytes',
      // Before the body is read: a project at its limit takes no more bytes.
      options: (d) => ({
        bodyLimit: bodyLimit(d.limits),
        preParsing: async (request, _reply, payload) => {
          await notFull(d, request);
          return payload;
        },
      }),
      answers: answers(z.object({ source_map: sourceMap }), undefined, 201),
      async handle(d, { projectId }, request, reply) {
        if (!Buffer.isBuffer(request.body)) throw badRequest('Request body is empty', 'JSON body', 'empty body');
        const checked = await d.pool.check(request.body).catch(budgetAnswer);
        if (!checked.ok) {
          if (checked.problem === 'json') throw malformedJson(checked.message);
          if (checked.problem === 'budget') throw httpError(413, `Source map too expensive to decode: it ${checked.message} (docs/source-maps.md, "Budgets")`);
          throw badRequest(`Not a source map: ${checked.message}`.slice(0, 300), 'a source map (version 3)', 'something else', ['source_map']);
        }
        if (checked.bytes > d.limits.maxBytes) throw tooLarge(d.limits);
        const body = sourceMapFields.parse(checked.fields);
        const key = urlKey(body.url);
        const existing = await d.repo.list(projectId, body.release, d.limits.maxFilesPerRelease + 1);
        if (existing.length >= d.limits.maxFilesPerRelease && !existing.some((e) => e.urlKey === key))
          throw httpError(413, `Release ${body.release} holds ${existing.length} source maps (limit SOURCE_MAP_MAX_FILES_PER_RELEASE)`);
        const debugId = body.debug_id?.toLowerCase() ?? checked.mapDebugId;
        const info = await d.repo.putCompressed(projectId, { release: body.release, urlKey: key, debugId, bytes: checked.bytes, gzip: checked.gzip });
        return reply.code(201).send({ source_map: infoJson(info) });
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/source-maps',
      summary: 'List uploaded source maps',
      security: UPLOADERS,
      query: sourceMapList,
      answers: answers(z.object({ source_maps: z.array(sourceMap) })),
      async handle(d, { projectId, query: q }) {
        return { source_maps: (await d.repo.list(projectId, q.release)).map(infoJson) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/projects/:id/source-maps',
      summary: 'Delete a release’s source maps (or one file’s)',
      security: UPLOADERS,
      query: sourceMapDelete,
      answers: answers(z.object({ deleted: z.number().int() })),
      async handle(d, { projectId, query: q }) {
        return { deleted: await d.repo.remove(projectId, q.release, q.url ? urlKey(q.url) : undefined) };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/error-groups/:fingerprint/symbolicated',
      summary: "A group's latest (or one) occurrence's stack at its original source",
      params: projectAnd(fingerprintParam),
      query: symbolicatedQuery,
      answers: answers(
        z.object({
          event_id: z.string().uuid(),
          release: z.string(),
          maps_found: z.number().int().openapi({ description: "Stored maps found for the stack's files." }),
          unsymbolicated: z.array(z.object({ url: z.string(), reason: z.string() })).openapi({
            description:
              'Files whose map was found but could not be used within the source-map worker\'s budget (docs/source-maps.md, "Budgets"): their frames are shown minified.',
          }),
          frames: z.array(frame),
        }),
        (docs) => ({ 404: docs.errorResponse('Unknown project, or nothing found.', notFound('Error event').message) }),
      ),
      async handle(d, { projectId, params, query: q }) {
        return symbolicate(d, projectId, (await d.retentionOf(projectId)).error, params.fingerprint, q.event_id);
      },
    }),
  ],
};
