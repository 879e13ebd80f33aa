import { describe, expect, it } from 'vitest';
import { RelationalStoreError } from '@devtrail/relational-store';
import { PROMPT_CACHE_MAX_ENTRIES, PROMPT_CACHE_MAX_STALE_MS, PROMPT_CACHE_TTL_MS, PromptCache } from '../src/prompts/prompt-cache.ts';

// The receiver's cache of prompt reads by ingest key (docs/api.md, "GET /ingest/prompts/:name"):
// fresh for its TTL, one lookup for concurrent misses, a recent entry while PostgreSQL is out,
// and bounded in entries. The lookups here are functions: no database is involved.
describe('prompt read cache', () => {
  it('serves an entry for its TTL, then looks it up again; concurrent misses share one lookup', async () => {
    let now = 0;
    let lookups = 0;
    const cache = new PromptCache<number>(() => now);
    const lookup = async () => ++lookups;
    expect(await Promise.all([cache.get('a', lookup), cache.get('a', lookup), cache.get('a', lookup)])).toEqual([1, 1, 1]);
    now += PROMPT_CACHE_TTL_MS - 1;
    expect(await cache.get('a', lookup)).toBe(1);
    now += 1;
    expect(await cache.get('a', lookup)).toBe(2);
  });

  it('serves a recent entry while the store is out, and refuses once it is too old or was never stored; counts each read', async () => {
    let now = 0;
    const results: string[] = [];
    const cache = new PromptCache<string>(
      () => now,
      (r) => results.push(r),
    );
    await cache.get('a', async () => 'v1');
    const out = async (): Promise<string> => {
      throw new RelationalStoreError('connection refused', true);
    };
    now += PROMPT_CACHE_TTL_MS;
    expect(await cache.get('a', out)).toBe('v1');
    now = PROMPT_CACHE_MAX_STALE_MS;
    await expect(cache.get('a', out)).rejects.toThrow('connection refused');
    await expect(cache.get('b', out)).rejects.toThrow('connection refused');
    expect(results).toEqual(['miss', 'stale']); // a refused read is the 503 the HTTP metrics count
    // A permanent failure is never hidden.
    let later = 0;
    const c2 = new PromptCache<string>(() => later);
    await c2.get('a', async () => 'v1');
    later += PROMPT_CACHE_TTL_MS;
    const permanent = async (): Promise<string> => {
      throw new RelationalStoreError('syntax error', false);
    };
    await expect(c2.get('a', permanent)).rejects.toThrow('syntax error');
  });

  it("drops a project's entries on its change notice, and keeps nothing a lookup read before it", async () => {
    const cache = new PromptCache<string>(() => 0);
    await cache.get('p1\na', async () => 'old');
    await cache.get('p2\na', async () => 'other');
    cache.evictPrefix('p1\n');
    expect(await cache.get('p1\na', async () => 'new')).toBe('new');
    expect(await cache.get('p2\na', async () => 'unasked')).toBe('other');
    let release!: (v: string) => void;
    const slow = cache.get('p1\nb', () => new Promise<string>((r) => (release = r)));
    cache.evictPrefix('p1\n');
    release('read before the change');
    expect(await slow).toBe('read before the change');
    expect(await cache.get('p1\nb', async () => 'after')).toBe('after');
  });

  it('keeps at most PROMPT_CACHE_MAX_ENTRIES, dropping the oldest', async () => {
    let lookups = 0;
    const cache = new PromptCache<number>(() => 0);
    for (let i = 0; i <= PROMPT_CACHE_MAX_ENTRIES; i++) await cache.get(`k${i}`, async () => ++lookups);
    expect(await cache.get(`k${PROMPT_CACHE_MAX_ENTRIES}`, async () => ++lookups)).toBe(PROMPT_CACHE_MAX_ENTRIES + 1);
    expect(await cache.get('k0', async () => -1)).toBe(-1); // dropped: looked up again
  });
});
