import { isRetryable } from '@devtrail/failures';
import type { KeyGrant } from '@devtrail/relational-store';

// Key lookups cached for `ttlMs` (60 s by default, docs/configuration.md). Every replica LISTENs for project
// changes and evicts at once, so a revoked key stops working immediately in spite of
// the cache. Unknown keys are cached briefly too, so random keys cannot hammer the DB.
// While PostgreSQL cannot be reached, a key known in the last `maxStaleMs` keeps
// working past its ttl (nobody can revoke a key in a database nobody reaches); once the
// database answers again, the LISTEN connection's reset clears the cache and every key
// is looked up afresh, so a revocation made meanwhile wins.

interface Entry {
  grant: KeyGrant | null;
  expires: number;
  storedAt: number;
}

export interface KeyCacheOptions {
  ttlMs: number;
  maxStaleMs: number;
  negativeTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
  /** Each lookup's result: hit (cached), miss (asked the database), stale (database out, a recent grant served). */
  onLookup?: (result: 'hit' | 'miss' | 'stale') => void;
}

export class KeyCache {
  private entries = new Map<string, Entry>();
  private inflight = new Map<string, Promise<KeyGrant | null>>();
  private generation = 0;
  private readonly now: () => number;

  constructor(
    private readonly lookup: (keyHash: string) => Promise<KeyGrant | null>,
    private readonly opts: KeyCacheOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  async get(keyHash: string): Promise<KeyGrant | null> {
    const hit = this.entries.get(keyHash);
    const now = this.now();
    if (hit && hit.expires > now) {
      this.opts.onLookup?.('hit');
      return hit.grant;
    }
    let pending = this.inflight.get(keyHash);
    if (!pending) {
      const gen = this.generation;
      pending = this.lookup(keyHash).then((grant) => {
        // A change notified while we were looking up may have made this answer stale.
        if (gen === this.generation) this.store(keyHash, grant);
        return grant;
      });
      pending.finally(() => this.inflight.delete(keyHash)).catch(() => {});
      this.inflight.set(keyHash, pending);
    }
    try {
      const grant = await pending;
      this.opts.onLookup?.('miss');
      return grant;
    } catch (err) {
      if (isRetryable(err) && hit?.grant && now - hit.storedAt <= this.opts.maxStaleMs) {
        this.opts.onLookup?.('stale');
        return hit.grant;
      }
      this.opts.onLookup?.('miss');
      throw err;
    }
  }

  private store(keyHash: string, grant: KeyGrant | null) {
    if (this.entries.size >= (this.opts.maxEntries ?? 100_000)) this.entries.clear();
    const now = this.now();
    this.entries.set(keyHash, { grant, storedAt: now, expires: now + (grant ? this.opts.ttlMs : (this.opts.negativeTtlMs ?? 5000)) });
  }

  /** A project changed (key revoked or created, settings edited): forget it, and every "unknown key". */
  evictProject(projectId: string): void {
    this.generation++;
    for (const [hash, e] of this.entries) if (e.grant === null || e.grant.projectId === projectId) this.entries.delete(hash);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
