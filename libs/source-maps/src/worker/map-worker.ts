import { parentPort, workerData } from 'node:worker_threads';
import { getHeapStatistics } from 'node:v8';
import { gunzipSync, gzipSync } from 'node:zlib';
import { decodedMappings, type TraceMap } from '@jridgewell/trace-mapping';
import { debugIdOfMap } from '../conventions.ts';
import { parseMap, symbolicate } from '../symbolicate.ts';
import type { CheckResult, Reply, SymbolicateResult, SymbolicateTask, Task } from './protocol.ts';

// The source-map worker (docs/source-maps.md, "Budgets"): every parse, decode and lookup of a map
// happens here, off the dashboard's event loop, in a heap of its own (the pool's resourceLimits):
// a map that does not fit ends this thread, never the process. Decoded maps are kept while the
// heap holds less than `cacheBytes`, the least recently used dropped first.

const { cacheBytes, heapBytes } = workerData as { cacheBytes: number; heapBytes: number };
const cache = new Map<string, TraceMap>();

// Decoded, a segment of `mappings` is a small array of numbers: ~100 bytes (a 31 MiB map of
// "AAAA," takes ~680 MB). A map whose segments, counted on its text, would take more than 3/4 of
// the heap is refused before it is decoded; the heap limit stays the backstop.
const BYTES_PER_SEGMENT = 100;
function pastBudget(json: unknown): string | null {
  const mappings = (json as { mappings?: unknown }).mappings;
  if (typeof mappings !== 'string') return null;
  let segments = 1;
  for (let i = 0; i < mappings.length; i++) {
    const c = mappings.charCodeAt(i);
    if (c === 44 || c === 59) segments++; // ',' ';'
  }
  const bytes = segments * BYTES_PER_SEGMENT;
  return bytes > heapBytes * 0.75
    ? `needs about ${Math.round(bytes / 2 ** 20)} MB decoded (${segments} segments), more than the source-map worker's ${Math.round(heapBytes / 2 ** 20)} MB allow`
    : null;
}

function check(body: Uint8Array): CheckResult {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch (err) {
    return { ok: false, problem: 'json', message: (err as Error).message };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, problem: 'json', message: 'the body is not a JSON object' };
  const { source_map: raw, ...fields } = parsed;
  let text: string;
  let json: unknown;
  try {
    if (typeof raw === 'string') {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is refused (as pgText)
      if (/\u0000/.test(raw)) throw new Error('a source map text cannot contain NUL (U+0000)');
      text = raw;
      json = JSON.parse(raw);
    } else if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
      json = raw;
      text = JSON.stringify(raw);
    } else throw new Error('source_map must be the map as JSON or as a string');
    const tooLarge = pastBudget(json);
    if (tooLarge) return { ok: false, problem: 'budget', message: tooLarge };
    decodedMappings(parseMap(json as object)); // refuses what is not a version 3 map; decodes all of it (the budget's test)
  } catch (err) {
    return { ok: false, problem: 'map', message: (err as Error).message };
  }
  const bytes = Buffer.byteLength(text);
  const gzip = gzipSync(text);
  return { ok: true, fields, mapDebugId: debugIdOfMap(json), bytes, gzip: new Uint8Array(gzip.buffer, gzip.byteOffset, gzip.byteLength) };
}

function trim(): void {
  while (cache.size > 1 && getHeapStatistics().used_heap_size > cacheBytes) cache.delete(cache.keys().next().value!);
}

async function symbolicateTask(task: SymbolicateTask): Promise<SymbolicateResult> {
  const byKey = new Map(task.maps.map((m) => [m.key, m]));
  const missing: string[] = [];
  const refused: Array<{ id: string; reason: string }> = [];
  const frames = await symbolicate(task.stack, async (key) => {
    const ref = byKey.get(key);
    if (!ref) return null;
    let map = cache.get(ref.id);
    if (map) {
      cache.delete(ref.id);
      cache.set(ref.id, map);
      return map;
    }
    if (!ref.gzip) {
      missing.push(ref.id);
      return null;
    }
    const json = JSON.parse(gunzipSync(ref.gzip).toString('utf8'));
    const tooLarge = pastBudget(json);
    if (tooLarge) {
      refused.push({ id: ref.id, reason: tooLarge });
      return null;
    }
    map = parseMap(json);
    decodedMappings(map);
    cache.set(ref.id, map);
    trim();
    return map;
  });
  return { frames, missing, held: [...cache.keys()], refused };
}

parentPort!.on('message', async ({ seq, task }: { seq: number; task: Task }) => {
  let reply: Reply;
  try {
    reply = { seq, result: task.type === 'check' ? check(task.body) : await symbolicateTask(task) };
  } catch (err) {
    reply = { seq, error: (err as Error).message ?? String(err) };
  }
  const transfer = 'result' in reply && 'gzip' in reply.result && reply.result.ok ? [reply.result.gzip.buffer as ArrayBuffer] : [];
  parentPort!.postMessage(reply, transfer);
});
parentPort!.postMessage('ready');
