import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createMapPool, MapBudgetError, type MapPool } from '../src/index.ts';

// The source-map worker under its budget (docs/source-maps.md, "Budgets"): a map that needs more
// memory or time than the worker may use fails that task with a MapBudgetError that says which,
// and the next task gets a fresh worker; a map that fits is checked and symbolicated. A real
// worker thread with a real heap limit.

const pools: MapPool[] = [];
const pool = (o: Partial<Parameters<typeof createMapPool>[0]> = {}) => {
  const p = createMapPool({ heapMb: 64, cacheMb: 16, timeoutMs: 20_000, queue: 4, ...o });
  pools.push(p);
  return p;
};
afterAll(async () => Promise.all(pools.map((p) => p.close())));

const body = (map: unknown) => new Uint8Array(Buffer.from(JSON.stringify({ release: 'r1', url: '~/a.js', source_map: map })));
const SMALL = { version: 3, sources: ['src/a.ts'], sourcesContent: ['const a = 1;\nthrow new Error(a);\n'], names: ['boom'], mappings: 'AAAA;AACAA' };
/** Segments that decode to ~20x their text: the review's map, at 12 MiB. */
const hostile = () => ({ version: 3, sources: ['a.js'], names: [], mappings: 'AAAA,'.repeat((12 * 1024 * 1024) / 5) });
const STACK = 'Error: 1\n    at boom (https://x.example/a.js:2:1)';

describe('the source-map worker', () => {
  it('checks and compresses a map that fits, and symbolicates with it', async () => {
    const p = pool();
    const r = await p.check(body(SMALL));
    expect(r).toMatchObject({ ok: true, fields: { release: 'r1', url: '~/a.js' }, bytes: JSON.stringify(SMALL).length });
    if (!r.ok) throw new Error('unreachable');
    const s = await p.symbolicate({ stack: STACK, maps: [{ key: '~/a.js', id: 'm1', gzip: r.gzip }] });
    expect(s.frames[1].original).toMatchObject({ file: 'src/a.ts', line: 2 });
    expect(s.held).toEqual(['m1']);
    // Held: asked again without the bytes, it still knows the map.
    expect((await p.symbolicate({ stack: STACK, maps: [{ key: '~/a.js', id: 'm1' }] })).frames[1].original).not.toBeNull();
    expect((await p.symbolicate({ stack: STACK, maps: [{ key: '~/a.js', id: 'm2' }] })).missing).toEqual(['m2']);
  });

  it('refuses what is not JSON or not a source map, saying which', async () => {
    const p = pool();
    expect(await p.check(new Uint8Array(Buffer.from('{"release":')))).toMatchObject({ ok: false, problem: 'json' });
    expect(await p.check(body({ version: 2 }))).toMatchObject({ ok: false, problem: 'map' });
    expect(await p.check(body('{"version":3,"sources":[],"mappings":"\u0000"}'))).toMatchObject({ ok: false, problem: 'map' });
  });

  it('a map whose segments would not fit is refused before it is decoded, at upload and at display', async () => {
    const p = pool({ heapMb: 64 });
    const r = await p.check(body(hostile()));
    expect(r).toMatchObject({ ok: false, problem: 'budget' });
    expect(!r.ok && r.message).toMatch(/^needs about 240 MB decoded \(2516583 segments\), more than the source-map worker's 64 MB allow$/);
    const gzip = new Uint8Array(gzipSync(JSON.stringify(hostile())));
    const s = await p.symbolicate({ stack: STACK, maps: [{ key: '~/a.js', id: 'big', gzip }] });
    expect(s.refused).toEqual([{ id: 'big', reason: expect.stringMatching(/^needs about 240 MB decoded/) }]);
    expect(s.frames[1].original).toBeNull();
  }, 60_000);

  it('a map past the heap limit anyway fails its task (memory), and the next task has a fresh worker', async () => {
    const p = pool({ heapMb: 64 });
    // Few segments, a 60 MB source text: the estimate lets it through, the heap does not.
    const fat = { ...SMALL, sourcesContent: ['x'.repeat(60 * 1024 * 1024)] };
    const err = await p.check(body(fat)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MapBudgetError);
    expect((err as MapBudgetError).kind).toBe('memory');
    expect(await p.check(body(SMALL))).toMatchObject({ ok: true });
  }, 60_000);

  it('a task past its time limit fails (time); a full queue is refused (busy)', async () => {
    const p = pool({ heapMb: 512, timeoutMs: 50, queue: 2 });
    const slow = p.check(body(hostile())).catch((e: unknown) => e);
    const queued = p.check(body(SMALL)).catch((e: unknown) => e);
    const refused = await p.check(body(SMALL)).catch((e: unknown) => e);
    expect((refused as MapBudgetError).kind).toBe('busy');
    expect(((await slow) as MapBudgetError).kind).toBe('time');
    // The queued task runs on a fresh worker (a fresh worker after a failure: the memory test above);
    // with a 50 ms limit on a loaded machine it may time out too, but it never waits for ever.
    expect(await queued).toSatisfy((r: unknown) => (r as { ok?: boolean }).ok === true || (r as MapBudgetError).kind === 'time');
  }, 60_000);
});
