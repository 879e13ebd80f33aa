import type { FastifyInstance } from 'fastify';
import type { TraceMap } from '@jridgewell/trace-mapping';
import type { ColumnStore } from '@devtrail/column-store';
import { badRequest, httpError, notFound } from '@devtrail/http';
import { debugIdOfMap, parseMap, symbolicate, urlKey } from '@devtrail/source-maps';
import { sourceMapsRepo, type SourceMapInfo, type RelationalStore } from '@devtrail/relational-store';
import { projectOf } from './access.ts';
import { fingerprintParam } from './api-schemas.ts';
import { sourceMapDelete, sourceMapList, sourceMapUpload } from './source-map-schemas.ts';
import { symbolicatedQuery } from './triage-schemas.ts';
import { occurrenceOf } from './triage-routes.ts';
import type { RetentionOf } from '../data/project-retention.ts';

// Source maps (docs/source-maps.md): upload per release and file URL (a project's upload
// token may upload its own project's maps, as may the operator and members), list, delete;
// and a group's stack symbolicated for display. source-map-docs.ts documents each path.

export const SOURCE_MAP_PATHS = {
  maps: '/api/projects/:id/source-maps',
  symbolicated: '/api/projects/:id/error-groups/:fingerprint/symbolicated',
};

export interface SourceMapLimits {
  maxBytes: number;
  maxFilesPerRelease: number;
  maxProjectBytes: number;
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

/** Upload, list and delete: the scope that also admits upload tokens. */
export function registerSourceMapUploads(app: FastifyInstance, relational: RelationalStore, limits: SourceMapLimits): void {
  const repo = sourceMapsRepo(relational);

  app.post(SOURCE_MAP_PATHS.maps, { bodyLimit: limits.maxBytes + 64 * 1024 }, async (request, reply) => {
    const projectId = await projectOf(request);
    const body = sourceMapUpload.parse(request.body);
    const text = typeof body.source_map === 'string' ? body.source_map : JSON.stringify(body.source_map);
    if (Buffer.byteLength(text) > limits.maxBytes) throw httpError(413, `Source map too large (limit ${limits.maxBytes} bytes, SOURCE_MAP_MAX_BYTES)`);
    let json: unknown;
    try {
      json = typeof body.source_map === 'string' ? JSON.parse(text) : body.source_map;
      parseMap(json as object); // refuses what is not a source map (version 3, mappings, sources)
    } catch (err) {
      throw badRequest(`Not a source map: ${(err as Error).message}`.slice(0, 300), 'a source map (version 3)', 'something else', ['source_map']);
    }
    const debugId = body.debug_id?.toLowerCase() ?? debugIdOfMap(json);
    const key = urlKey(body.url);
    const usage = await repo.usage(projectId);
    if (usage.storedBytes > limits.maxProjectBytes)
      throw httpError(
        413,
        `The project holds ${usage.storedBytes} bytes of source maps (limit SOURCE_MAP_MAX_PROJECT_BYTES ${limits.maxProjectBytes}): delete old releases`,
      );
    const existing = await repo.list(projectId, body.release, limits.maxFilesPerRelease + 1);
    if (existing.length >= limits.maxFilesPerRelease && !existing.some((e) => e.urlKey === key))
      throw httpError(413, `Release ${body.release} holds ${existing.length} source maps (limit SOURCE_MAP_MAX_FILES_PER_RELEASE)`);
    const info = await repo.put(projectId, { release: body.release, urlKey: key, debugId, map: text });
    return reply.code(201).send({ source_map: infoJson(info) });
  });

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

/** Parsed maps by id: parsing a large map costs more than reading it. Bounded by count. */
function mapCache(max = 16) {
  const cache = new Map<string, TraceMap>();
  return (id: string, make: () => TraceMap) => {
    let m = cache.get(id);
    if (m) {
      cache.delete(id);
      cache.set(id, m);
      return m;
    }
    m = make();
    cache.set(id, m);
    if (cache.size > max) cache.delete(cache.keys().next().value!);
    return m;
  };
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

/** A group's stack, symbolicated: under the read API's authentication. */
export function registerSymbolication(app: FastifyInstance, store: ColumnStore, relational: RelationalStore, retentionOf: RetentionOf): void {
  const repo = sourceMapsRepo(relational);
  const cached = mapCache();
  app.get(SOURCE_MAP_PATHS.symbolicated, async (request) => {
    const projectId = await projectOf(request);
    const { fingerprint } = fingerprintParam.parse(request.params);
    const { event_id } = symbolicatedQuery.parse(request.query);
    const event = await occurrenceOf(store, projectId, (await retentionOf(projectId)).error, fingerprint, event_id);
    if (!event) throw notFound('Error event');
    const debugIds = debugIdsOf(event.context as Record<string, unknown>);
    let mapped = 0;
    const frames = await symbolicate(event.stack_trace, async (key) => {
      const found = await repo.find(projectId, { debugId: debugIds.get(key) ?? null, release: event.release, urlKey: key });
      if (!found) return null;
      mapped++;
      return cached(found.id, () => parseMap(found.map));
    });
    return { event_id: event.event_id, release: event.release, maps_found: mapped, frames };
  });
}
