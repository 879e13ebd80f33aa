// Per-key fixed-window limit that holds across receiver replicas without a round trip
// per request: each replica leases blocks of the window's quota from the shared store
// (PostgreSQL) and spends them locally. Leases never exceed the limit, so replicas
// cannot overshoot; the cost is a small undershoot (unspent leases elsewhere).
// A block is ~2% of the limit, so at 5,000/min a replica asks once per 100 requests,
// and it asks for the next block before the current one runs out.

export type LeaseFn = (keyId: string, windowStart: Date, requested: number, limit: number) => Promise<{ granted: number; used: number }>;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

interface KeyWindow {
  start: number;
  limit: number;
  tokens: number;
  globalUsed: number;
  exhausted: boolean;
  leasing?: Promise<void>;
}

export class RateLimiter {
  private windows = new Map<string, KeyWindow>();

  constructor(
    private readonly lease: LeaseFn,
    private readonly onLeaseError: (err: unknown) => void,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  private blockSize(limit: number) {
    return Math.max(1, Math.ceil(limit * 0.02));
  }

  async take(keyId: string, limit: number): Promise<RateDecision> {
    const now = this.now();
    const start = Math.floor(now / this.windowMs) * this.windowMs;
    let w = this.windows.get(keyId);
    if (!w || w.start !== start) {
      if (this.windows.size > 50_000) this.windows.clear();
      w = { start, limit, tokens: 0, globalUsed: 0, exhausted: false };
      this.windows.set(keyId, w);
    } else if (w.limit !== limit) {
      // The operator changed the limit mid-window: ask the shared window again.
      w.limit = limit;
      w.exhausted = false;
    }
    const block = this.blockSize(limit);
    while (w.tokens === 0 && !w.exhausted) await this.refill(keyId, w, limit, block);
    const resetSeconds = Math.max(1, Math.ceil((start + this.windowMs - now) / 1000));
    if (w.tokens === 0) return { allowed: false, limit, remaining: 0, resetSeconds };
    w.tokens--;
    if (w.tokens <= block / 2 && !w.exhausted && !w.leasing) void this.refill(keyId, w, limit, block);
    return { allowed: true, limit, remaining: Math.max(0, limit - w.globalUsed + w.tokens), resetSeconds };
  }

  private refill(keyId: string, w: KeyWindow, limit: number, block: number): Promise<void> {
    w.leasing ??= this.lease(keyId, new Date(w.start), block, limit)
      .then(({ granted, used }) => {
        w.tokens += granted;
        w.globalUsed = used;
        if (granted < block) w.exhausted = w.tokens === 0 || granted === 0;
      })
      .catch((err) => {
        // The shared store is unreachable: keep ingesting (fail open) with a local
        // block rather than turn a database outage into lost telemetry.
        this.onLeaseError(err);
        w.tokens += block;
      })
      .finally(() => {
        w.leasing = undefined;
      });
    return w.leasing;
  }
}
