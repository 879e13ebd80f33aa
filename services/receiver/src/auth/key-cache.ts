import type { KeyGrant } from '@devtrail/relational-store';

// Key lookups cached for `ttlMs` (spec: 60 s). Every replica LISTENs for project
// changes and evicts at once, so a revoked key stops working immediately in spite of
// the cache. Unknown keys are cached briefly too, so random keys cannot hammer the DB.

interface Entry {
  grant: KeyGrant | null;
  expires: number;
}

export class KeyCache {
  private entries = new Map<string, Entry>();
  private inflight = new Map<string, Promise<KeyGrant | null>>();
  private generation = 0;

  constructor(
    private readonly lookup: (keyHash: string) => Promise<KeyGrant | null>,
    private readonly ttlMs: number,
    private readonly negativeTtlMs = 5000,
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  async get(keyHash: string): Promise<KeyGrant | null> {
    const hit = this.entries.get(keyHash);
    if (hit && hit.expires > this.now()) return hit.grant;
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
    return pending;
  }

  private store(keyHash: string, grant: KeyGrant | null) {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(keyHash, { grant, expires: this.now() + (grant ? this.ttlMs : this.negativeTtlMs) });
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
