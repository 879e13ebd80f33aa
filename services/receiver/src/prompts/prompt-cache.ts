import { isRetryable } from '@devtrail/failures';

// Prompt reads by ingest key (prompt-read.ts) cached per project, name and label or version, so
// a key holder polling a prompt costs the receiver a map lookup, not a PostgreSQL query: each
// entry is fresh for PROMPT_CACHE_TTL_MS, concurrent misses share one lookup, and at most
// PROMPT_CACHE_MAX_ENTRIES are kept (the oldest dropped first). A change to a project's prompts
// is NOTIFYed and drops its entries at once (prompt-read.ts), so the TTL only bounds a notice
// that was missed. While PostgreSQL cannot be reached, an entry stored in the last
// PROMPT_CACHE_MAX_STALE_MS is served as it was.
// docs/api.md ("Read a prompt with the ingest key").

/** How long a read is served from the cache: a label moved in the dashboard reaches SDKs within this plus their own TTL. */
export const PROMPT_CACHE_TTL_MS = 5_000;
export const PROMPT_CACHE_MAX_ENTRIES = 10_000;
export const PROMPT_CACHE_MAX_STALE_MS = 600_000;

interface Entry<T> {
  value: T;
  storedAt: number;
}

export class PromptCache<T> {
  private entries = new Map<string, Entry<T>>();
  private inflight = new Map<string, Promise<T>>();
  /** Bumped by each eviction: a lookup begun before it does not store what it read. */
  private generation = 0;

  constructor(
    private readonly now: () => number = Date.now,
    /** Each read's result: hit (cached), miss (looked up), stale (the lookup failed, a recent entry served). */
    private readonly onLookup: (result: 'hit' | 'miss' | 'stale') => void = () => {},
  ) {}

  async get(key: string, lookup: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    const now = this.now();
    if (hit && now - hit.storedAt < PROMPT_CACHE_TTL_MS) {
      this.onLookup('hit');
      return hit.value;
    }
    let pending = this.inflight.get(key);
    if (!pending) {
      const gen = this.generation;
      pending = lookup().then((value) => {
        if (gen === this.generation) this.store(key, value);
        return value;
      });
      pending.finally(() => this.inflight.delete(key)).catch(() => {});
      this.inflight.set(key, pending);
    }
    try {
      const value = await pending;
      this.onLookup('miss');
      return value;
    } catch (err) {
      if (hit && isRetryable(err) && now - hit.storedAt < PROMPT_CACHE_MAX_STALE_MS) {
        this.onLookup('stale');
        return hit.value;
      }
      throw err;
    }
  }

  /** Drops the entries whose key starts with this prefix (a project's, on its change notice). */
  evictPrefix(prefix: string): void {
    this.generation++;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  private store(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { value, storedAt: this.now() });
    if (this.entries.size > PROMPT_CACHE_MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }
}
