import type { ColumnStore } from '@devtrail/column-store';
import { httpError, notFound } from '@devtrail/http';
import type { SourceMapsRepo } from '@devtrail/relational-store';
import { MapBudgetError, parseStack, urlKey, type MapPool } from '@devtrail/source-maps';
import { occurrenceOf } from '../api/triage-routes.ts';

// A group's stack at its original source (docs/source-maps.md): which stored map serves each
// file, the bytes sent to the source-map worker only when it lacks them, and maps too dear for
// the worker's budget shown minified with the reason, never tried again.

/** A worker's refusal as an answer: a map too dear to decode is the uploader's 413; a busy worker a 503. */
export function budgetAnswer(err: unknown): never {
  if (err instanceof MapBudgetError) {
    if (err.kind === 'busy') throw httpError(503, 'Source maps are busy: retry later', { 'retry-after': '5' });
    if (err.kind === 'memory' || err.kind === 'time') throw httpError(413, `Source map too expensive to decode: it ${err.message} (docs/source-maps.md, "Budgets")`);
  }
  throw err;
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
export function failedMaps(max = 1000) {
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
export type FailedMaps = ReturnType<typeof failedMaps>;

export interface Symbolicator {
  store: ColumnStore;
  repo: SourceMapsRepo;
  pool: MapPool;
  failed: FailedMaps;
}

/** The stack of the group's latest occurrence (or `eventId`), each frame with its original source where a map serves it. */
export async function symbolicate(s: Symbolicator, projectId: string, retentionDays: number, fingerprint: string, eventId?: string) {
  const event = await occurrenceOf(s.store, projectId, retentionDays, fingerprint, eventId);
  if (!event) throw notFound('Error event');
  const debugIds = debugIdsOf(event.context as Record<string, unknown>);
  // Which stored map serves each file of the stack (ids only: the bytes go to the worker when it lacks them).
  const refs = new Map<string, string>();
  const unsymbolicated: Array<{ url: string; reason: string }> = [];
  for (const { frame } of parseStack(event.stack_trace)) {
    if (!frame) continue;
    const key = urlKey(frame.url);
    if (refs.has(key) || unsymbolicated.some((u) => u.url === key)) continue;
    const ref = await s.repo.findRef(projectId, { debugId: debugIds.get(key) ?? null, release: event.release, urlKey: key });
    if (!ref) continue;
    const reason = s.failed.get(ref.id);
    if (reason) unsymbolicated.push({ url: key, reason });
    else refs.set(key, ref.id);
  }
  const withBytes = async (ids: ReadonlySet<string>) =>
    Promise.all(
      [...refs].map(async ([key, id]) => {
        if (!ids.has(id)) return { key, id };
        const gz = await s.repo.gzipOf(projectId, id);
        return gz ? { key, id, gzip: new Uint8Array(gz) } : { key, id };
      }),
    );
  const held = s.pool.held();
  const run = async (send: ReadonlySet<string>) => s.pool.symbolicate({ stack: event.stack_trace, maps: await withBytes(send) });
  try {
    let r = await run(new Set([...refs.values()].filter((id) => !held.has(id))));
    // The worker dropped a map between our look at what it held and the task: send those too.
    if (r.missing.length > 0) r = await run(new Set(r.missing));
    for (const { id, reason } of r.refused) {
      s.failed.add([id], `not symbolicated: the map ${reason}`);
      for (const [key, ref] of refs) if (ref === id) unsymbolicated.push({ url: key, reason: `not symbolicated: the map ${reason}` });
    }
    return { event_id: event.event_id, release: event.release, maps_found: refs.size, unsymbolicated, frames: r.frames };
  } catch (err) {
    if (!(err instanceof MapBudgetError) || err.kind === 'failed') throw err;
    if (err.kind === 'busy') budgetAnswer(err);
    // Too dear for the worker's budget: shown minified, with the reason, and not tried again.
    const reason = `not symbolicated: the map ${err.message}`;
    s.failed.add(
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
}
