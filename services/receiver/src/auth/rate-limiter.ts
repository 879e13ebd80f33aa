// Per-key fixed-window limit that holds across receiver replicas without a round trip
// per request, and never makes a request wait on PostgreSQL. Each replica leases blocks
// of the window's quota from the shared store and spends them locally; leases never
// exceed the limit. A block is ~2% of the limit (at 5,000/min a replica asks once per
// 100 requests); the next block is asked for before the current one runs out, and the
// next window's first block before the window turns.
// When no leased token is at hand (a lease in flight, PostgreSQL slow or unreachable), a
// request is admitted on credit and the next lease pays the credit back, so the shared
// count stays right. Credit is bounded: one replica never admits more than the key's
// limit in a window, nor more than the shared count it last saw leaves, so while
// PostgreSQL is unreachable the whole deployment admits at most limit x replicas per
// window (docs/api.md), and no request waits. Taken n at a time (a request's events,
// data/event-quotas.ts), a credit the shared window then refuses is at most one request's
// n per replica and window.

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
  /** Leased and not yet spent. */
  tokens: number;
  /** Admitted without a leased token, to be paid back by the next lease. */
  credit: number;
  /** Admitted by this replica in this window. */
  admitted: number;
  /** The shared count as last seen. */
  globalUsed: number;
  /** The shared window has no quota left. */
  exhausted: boolean;
  /** The fewest tokens a refused take asked for in this window (spent() refuses takes that large). */
  minRefused: number;
  leasing?: Promise<void>;
  /** The next window's first block, leased ahead. */
  next?: KeyWindow;
}

export interface RateLimiterOptions {
  windowMs?: number;
  /** How long before the window turns its successor's first block is leased. */
  leaseAheadMs?: number;
  /** After a failed lease, how long before trying again. */
  retryLeaseMs?: number;
  now?: () => number;
}

export class RateLimiter {
  private windows = new Map<string, KeyWindow>();
  private failingUntil = 0;
  private readonly windowMs: number;
  private readonly leaseAheadMs: number;
  private readonly retryLeaseMs: number;
  private readonly now: () => number;

  constructor(
    private readonly lease: LeaseFn,
    /** Called when leasing starts failing (once) and when it works again. */
    private readonly onLeaseState: (failing: boolean, err?: unknown) => void,
    opts: RateLimiterOptions = {},
  ) {
    this.windowMs = opts.windowMs ?? 60_000;
    this.leaseAheadMs = opts.leaseAheadMs ?? 2000;
    this.retryLeaseMs = opts.retryLeaseMs ?? 1000;
    this.now = opts.now ?? Date.now;
  }

  private blockSize(limit: number) {
    return Math.max(1, Math.ceil(limit * 0.02));
  }

  /**
   * Decides at once for `n` tokens (requests, or a request's events), all or none; any lease
   * it needs runs in the background. Blocks are ~2% of `blockOf`: the limit, unless the
   * caller expects far less use than the limit allows (a window counted, not limited).
   */
  take(keyId: string, limit: number, n = 1, blockOf = limit): RateDecision {
    const now = this.now();
    const start = Math.floor(now / this.windowMs) * this.windowMs;
    const w = this.windowOf(keyId, start, limit);
    const block = this.blockSize(blockOf);
    const resetSeconds = Math.max(1, Math.ceil((start + this.windowMs - now) / 1000));
    let allowed = false;
    if (w.tokens >= n) {
      w.tokens -= n;
      allowed = true;
    } else if (!w.exhausted && w.admitted + n <= limit && w.globalUsed + w.credit + n - w.tokens <= limit) {
      w.credit += n - w.tokens;
      w.tokens = 0;
      allowed = true;
    }
    if (allowed) w.admitted += n;
    else w.minRefused = Math.min(w.minRefused, n);
    if (!w.exhausted && w.tokens <= block / 2) this.refill(keyId, w, block);
    if (now >= start + this.windowMs - this.leaseAheadMs) this.leaseAhead(keyId, w, block);
    const remaining = allowed || !w.exhausted ? Math.max(0, limit - w.globalUsed - w.credit + w.tokens) : 0;
    return { allowed, limit, remaining: w.exhausted && w.tokens === 0 ? 0 : remaining, resetSeconds };
  }

  /**
   * A refusal, taking nothing, when a take as large as the smallest one this window refused
   * would be refused now (nothing was given back or leased since): the caller can refuse
   * before doing the work of finding out how many tokens it needs. Null otherwise.
   */
  spent(keyId: string, limit: number): RateDecision | null {
    const now = this.now();
    const start = Math.floor(now / this.windowMs) * this.windowMs;
    const w = this.windows.get(keyId);
    if (!w || w.start !== start || w.limit !== limit || w.minRefused === Number.POSITIVE_INFINITY) return null;
    const n = w.minRefused;
    if (w.tokens >= n || (!w.exhausted && w.admitted + n <= limit && w.globalUsed + w.credit + n - w.tokens <= limit)) return null;
    return { allowed: false, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil((start + this.windowMs - now) / 1000)) };
  }

  /** Returns `n` tokens taken in the current window and not used after all (the request failed later): this replica spends them again. */
  giveBack(keyId: string, n: number): void {
    const w = this.windows.get(keyId);
    if (!w || w.start !== Math.floor(this.now() / this.windowMs) * this.windowMs) return;
    w.tokens += n;
    w.admitted = Math.max(0, w.admitted - n);
  }

  private windowOf(keyId: string, start: number, limit: number): KeyWindow {
    let w = this.windows.get(keyId);
    if (!w || w.start !== start) {
      if (this.windows.size > 50_000) this.windows.clear();
      w = w?.next?.start === start ? w.next : fresh(start, limit);
      this.windows.set(keyId, w);
    }
    if (w.limit !== limit) {
      // The operator changed the limit mid-window: ask the shared window again.
      w.limit = limit;
      w.exhausted = false;
      w.minRefused = Number.POSITIVE_INFINITY;
    }
    return w;
  }

  /** Leases the next block (plus the credit to pay back) unless a lease runs or leasing is failing. */
  private refill(keyId: string, w: KeyWindow, block: number): void {
    if (w.leasing || this.now() < this.failingUntil) return;
    const requested = block + w.credit;
    const credit = w.credit;
    w.leasing = this.lease(keyId, new Date(w.start), requested, w.limit)
      .then(({ granted, used }) => {
        const repaid = Math.min(granted, credit);
        w.credit -= repaid;
        w.tokens += granted - repaid;
        w.globalUsed = used;
        if (granted < requested) w.exhausted = true;
        this.leaseWorked();
      })
      .catch((err) => this.leaseFailed(err))
      .finally(() => {
        w.leasing = undefined;
      });
  }

  private leaseAhead(keyId: string, w: KeyWindow, block: number): void {
    if (w.next) return;
    const next = fresh(w.start + this.windowMs, w.limit);
    w.next = next;
    this.refill(keyId, next, block);
  }

  private leaseWorked() {
    if (this.failingUntil === 0) return;
    this.failingUntil = 0;
    this.onLeaseState(false);
  }

  private leaseFailed(err: unknown) {
    if (this.failingUntil === 0) this.onLeaseState(true, err);
    this.failingUntil = this.now() + this.retryLeaseMs;
  }
}

const fresh = (start: number, limit: number): KeyWindow => ({
  start,
  limit,
  tokens: 0,
  credit: 0,
  admitted: 0,
  globalUsed: 0,
  exhausted: false,
  minRefused: Number.POSITIVE_INFINITY,
});
