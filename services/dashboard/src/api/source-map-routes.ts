import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ColumnStore } from '@devtrail/column-store';
import { badRequest, httpError, malformedJson, notFound, toHttpAnswer } from '@devtrail/http';
import { MapBudgetError, parseStack, urlKey, type MapBudget, type MapPool } from '@devtrail/source-maps';
import { sourceMapsRepo, type MapFiles, type SourceMapInfo, type RelationalStore } from '@devtrail/relational-store';
import { projectOf } from './access.ts';
import { fingerprintParam } from './api-schemas.ts';
import { sourceMapDelete, sourceMapFields, sourceMapList } from './source-map-schemas.ts';
import { symbolicatedQuery } from './triage-schemas.ts';
import { occurrenceOf } from './triage-routes.ts';
import type { RetentionOf } from '../data/project-retention.ts';

// Source maps (docs/source-maps.md): upload per release and file URL (a project's upload
// token may upload its own project's maps, as may the operator and members), list, delete;
// and a group's stack symbolicated for display. Every parse, decode and lookup of a map runs
// in the source-map worker (MapPool: its own heap and time limits), never on this event loop:
// the upload's body is taken as bytes and handed over whole. source-map-docs.ts documents each path.

export const SOURCE_MAP_PATHS = {
  maps: '/api/projects/:id/source-maps',
  symbolicated: '/api/projects/:id/error-groups/:fingerprint/symbolicated',
};

export interface SourceMapLimits {
  maxBytes: number;
  maxFilesPerRelease: number;
  maxProjectBytes: number;
  /** The source-map worker's heap, cache and time (docs/source-maps.md, "Budgets"). */
  budget: Omit<MapBudget, 'queue'> & { queue: number };
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

/** A worker's refusal as an answer: a map too dear to decode is the uploader's 413; a busy worker a 503. */
function budgetAnswer(err: unknown): never {
  if (err instanceof MapBudgetError) {
    if (err.kind === 'busy') throw httpError(503, 'Source maps are busy: retry later', { 'retry-after': '5' });
    if (err.kind === 'memory' || err.kind === 'time') throw httpError(413, `Source map too expensive to decode: it ${err.message} (docs/source-maps.md, "Budgets")`);
  }
  throw err;
}

/** Upload, list and delete: the scope that also admits upload tokens. `files`: where maps' bytes go beside an in-process relational store. */
export function registerSourceMapUploads(app: FastifyInstance, relational: RelationalStore, limits: SourceMapLimits, pool: MapPool, files?: MapFiles): void {
  const repo = sourceMapsRepo(relational, files);
  const bodyLimit = limits.maxBytes + 64 * 1024;
  const tooLarge = () => httpError(413, `Source map too large (limit ${limits.maxBytes} bytes, SOURCE_MAP_MAX_BYTES)`);

  // The body as bytes, counted as it streams in (413 past the limit, before it is all held):
  // the worker parses it.
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => done(null, body));
  app.setErrorHandler((err, _request, reply) => {
    const h = (err as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? tooLarge() : toHttpAnswer(err);
    return reply.code(h.status).headers(h.headers).send(h.body);
  });

  const fullProject = async (request: FastifyRequest) => {
    const projectId = await projectOf(request);
    const usage = await repo.usage(projectId);
    if (usage.storedBytes >= limits.maxProjectBytes)
      throw httpError(
        413,
        `The project holds ${usage.storedBytes} bytes of source maps (limit SOURCE_MAP_MAX_PROJECT_BYTES ${limits.maxProjectBytes}): delete old releases`,
      );
  };

  app.post(
    SOURCE_MAP_PATHS.maps,
    {
      bodyLimit,
      // Before the body is read: a project at its limit takes no more bytes.
      preParsing: async (request, _reply, payload) => {
        await fullProject(request);
        return payload;
      },
    },
    async (request, reply) => {
      const projectId = await projectOf(request);
      if (!Buffer.isBuffer(request.body)) throw badRequest('Request body is empty', 'JSON body', 'empty body');
      const checked = await pool.check(request.body).catch(budgetAnswer);
      if (!checked.ok) {
        if (checked.problem === 'json') throw malformedJson(checked.message);
        if (checked.problem === 'budget') throw httpError(413, `Source map too expensive to decode: it ${checked.message} (docs/source-maps.md, "Budgets")`);
        throw badRequest(`Not a source map: ${checked.message}`.slice(0, 300), 'a source map (version 3)', 'something else', ['source_map']);
      }
      if (checked.bytes > limits.maxBytes) throw tooLarge();
      const body = sourceMapFields.parse(checked.fields);
      const key = urlKey(body.url);
      const existing = await repo.list(projectId, body.release, limits.maxFilesPerRelease + 1);
      if (existing.length >= limits.maxFilesPerRelease && !existing.some((e) => e.urlKey === key))
        throw httpError(413, `Release ${body.release} holds ${existing.length} source maps (limit SOURCE_MAP_MAX_FILES_PER_RELEASE)`);
      const debugId = body.debug_id?.toLowerCase() ?? checked.mapDebugId;
      const info = await repo.putCompressed(projectId, { release: body.release, urlKey: key, debugId, bytes: checked.bytes, gzip: checked.gzip });
      return reply.code(201).send({ source_map: infoJson(info) });
    },
  );

  app.get(SOURCE_MAP_PATHS.maps, async (request) => {
    const projectId = await projectOf(request);
    const q = sourceMapList.parse(request.query);
    return { source_maps: (await repo.list(projectId, q.release)).map(infoJson) };
  });

  app.delete(SOURCE_MAP_PATHS.maps, async (request) => {
    const projectId = await projectOf(request);
    const q = sourceMapDelete.parse(request.query);
    return { deleted: await repo.remove(projectId, q.release, q.url ? urlKey(q.url) : undefined) };
  });
}

/** Debug ids an event names for its files (context.debug_meta.images, the convention SDKs use). */
function debugIdsOf(context: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const images = (context.debug_meta as { images?: unknown } | undefined)?.images;
  if (!Array.isArray(images)) return out;
  for (const i of images.slice(0, 500)) {
    const img = i as { code_file?: unknown; debug_id?: unknown };
    if (typeof img.code_file === 'string' && typeof img.debug_id === 'string') out.set(urlKey(img.code_file), img.debug_id.toLowerCase());
  }
  return out;
}

/** Maps that once ran out of the worker's memory or time: not tried again (bounded). */
function failedMaps(max = 1000) {
  const failed = new Map<string, string>();
  return {
    get: (id: string) => failed.get(id),
    add(ids: string[], reason: string) {
      for (const id of ids) {
        if (failed.size >= max) failed.delete(failed.keys().next().value!);
        failed.set(id, reason);
      }
    },
  };
}

/** A group's stack, symbolicated: under the read API's authentication. */
export function registerSymbolication(
  app: FastifyInstance,
  store: ColumnStore,
  relational: RelationalStore,
  retentionOf: RetentionOf,
  pool: MapPool,
  files?: MapFiles,
): void {
  const repo = sourceMapsRepo(relational, files);
  const failed = failedMaps();
  app.get(SOURCE_MAP_PATHS.symbolicated, async (request) => {
    const projectId = await projectOf(request);
    const { fingerprint } = fingerprintParam.parse(request.params);
    const { event_id } = symbolicatedQuery.parse(request.query);
    const event = await occurrenceOf(store, projectId, (await retentionOf(projectId)).error, fingerprint, event_id);
    if (!event) throw notFound('Error event');
    const debugIds = debugIdsOf(event.context as Record<string, unknown>);
    // Which stored map serves each file of the stack (ids only: the bytes go to the worker when it lacks them).
    const refs = new Map<string, string>();
    const unsymbolicated: Array<{ url: string; reason: string }> = [];
    for (const { frame } of parseStack(event.stack_trace)) {
      if (!frame) continue;
      const key = urlKey(frame.url);
      if (refs.has(key) || unsymbolicated.some((u) => u.url === key)) continue;
      const ref = await repo.findRef(projectId, { debugId: debugIds.get(key) ?? null, release: event.release, urlKey: key });
      if (!ref) continue;
      const reason = failed.get(ref.id);
      if (reason) unsymbolicated.push({ url: key, reason });
      else refs.set(key, ref.id);
    }
    const withBytes = async (ids: ReadonlySet<string>) =>
      Promise.all(
        [...refs].map(async ([key, id]) => {
          if (!ids.has(id)) return { key, id };
          const gz = await repo.gzipOf(projectId, id);
          return gz ? { key, id, gzip: new Uint8Array(gz) } : { key, id };
        }),
      );
    const held = pool.held();
    const run = async (send: ReadonlySet<string>) => pool.symbolicate({ stack: event.stack_trace, maps: await withBytes(send) });
    try {
      let r = await run(new Set([...refs.values()].filter((id) => !held.has(id))));
      // The worker dropped a map between our look at what it held and the task: send those too.
      if (r.missing.length > 0) r = await run(new Set(r.missing));
      for (const { id, reason } of r.refused) {
        failed.add([id], `not symbolicated: the map ${reason}`);
        for (const [key, ref] of refs) if (ref === id) unsymbolicated.push({ url: key, reason: `not symbolicated: the map ${reason}` });
      }
      return { event_id: event.event_id, release: event.release, maps_found: refs.size, unsymbolicated, frames: r.frames };
    } catch (err) {
      if (!(err instanceof MapBudgetError) || err.kind === 'failed') throw err;
      if (err.kind === 'busy') budgetAnswer(err);
      // Too dear for the worker's budget: shown minified, with the reason, and not tried again.
      const reason = `not symbolicated: the map ${err.message}`;
      failed.add(
        [...refs.values()].filter((id) => !held.has(id)),
        reason,
      );
      for (const key of refs.keys()) unsymbolicated.push({ url: key, reason });
      const frames = parseStack(event.stack_trace).map(({ raw, frame }) => ({
        raw,
        minified: frame ? { function: frame.function, url: frame.url, line: frame.line, column: frame.column } : null,
        original: null,
      }));
      return { event_id: event.event_id, release: event.release, maps_found: refs.size, unsymbolicated, frames };
    }
  });
}
