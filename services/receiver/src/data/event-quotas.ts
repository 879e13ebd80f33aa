import { httpError } from '@devtrail/http';
import type { EventKind } from '@devtrail/kinds';
import { nameOfKind, type ResolvedPolicy } from '@devtrail/data-policy';
import { RateLimiter, type LeaseFn } from '../auth/rate-limiter.ts';

// Quotas and the spike guard per project and kind (docs/data.md#quotas): events per minute
// and per UTC day, and optionally no more per minute than K times the project's recent
// baseline. They hold across receivers without a round trip per request the way the
// per-key rate limit does (auth/rate-limiter.ts): each receiver leases blocks of a shared
// PostgreSQL window (quota_windows) and spends them locally. The baseline is the average of
// the project's last 60 minute windows, read once a minute per project and kind by each
// receiver in the background; until it is known the guard does not refuse.

export type RefusalReason = 'quota_per_minute' | 'quota_per_day' | 'spike_guard';
export const REFUSAL_REASONS: readonly RefusalReason[] = ['quota_per_minute', 'quota_per_day', 'spike_guard'];

export interface Refusal {
  reason: RefusalReason;
  retryAfterSeconds: number;
  limit: number;
}

/** Events per minute over the last hour, for a scope: its minute windows' total in [from, to). */
export type BaselineFn = (scope: string, from: Date, to: Date) => Promise<number>;

const MINUTE = 60_000;
const DAY = 86_400_000;
const BASELINE_MINUTES = 60;

interface Baseline {
  /** The minute window it was computed for. */
  minute: number;
  perMinute: number | null;
  loading: boolean;
}

export class EventQuotas {
  private readonly perMinute: RateLimiter;
  private readonly perDay: RateLimiter;
  private readonly baselines = new Map<string, Baseline>();

  constructor(
    lease: LeaseFn,
    private readonly baseline: BaselineFn,
    onLeaseState: (failing: boolean, err?: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.perMinute = new RateLimiter(lease, onLeaseState, { windowMs: MINUTE, now });
    this.perDay = new RateLimiter(lease, onLeaseState, { windowMs: DAY, now });
  }

  /**
   * Takes `n` events of a kind from the project's windows, all or none. Null when they may
   * be produced; otherwise which limit refused them (and nothing stays taken).
   */
  admit(projectId: string, kind: EventKind, n: number, policy: ResolvedPolicy): Refusal | null {
    const quota = policy.quotas[kind];
    const guard = policy.spikeGuard.enabled ? this.spikeLimit(projectId, kind, policy) : null;
    const spike = guard?.limit ?? null;
    const minuteLimit = minOf(quota.perMinute, spike);
    const minuteKey = scope(projectId, kind, 'm');
    // Counted while the guard is on even without a limit yet: the windows are its baseline,
    // so their blocks are sized by the expected use (tokens leased and not spent count too).
    const countMinute = minuteLimit !== null || guard !== null;
    if (countMinute) {
      const blockOf = guard ? Math.min(minuteLimit ?? Number.MAX_SAFE_INTEGER, guard.expected) : minuteLimit!;
      const d = this.perMinute.take(minuteKey, minuteLimit ?? Number.MAX_SAFE_INTEGER, n, blockOf);
      if (!d.allowed) {
        const reason = spike !== null && minuteLimit === spike && (quota.perMinute === null || spike < quota.perMinute) ? 'spike_guard' : 'quota_per_minute';
        return { reason, retryAfterSeconds: d.resetSeconds, limit: d.limit };
      }
    }
    if (quota.perDay !== null) {
      const d = this.perDay.take(scope(projectId, kind, 'd'), quota.perDay, n);
      if (!d.allowed) {
        if (countMinute) this.perMinute.giveBack(minuteKey, n);
        return { reason: 'quota_per_day', retryAfterSeconds: d.resetSeconds, limit: d.limit };
      }
    }
    return null;
  }

  /**
   * Whether the kind's quota of the project is spent for the current window already, taking
   * nothing: a request can then be refused before its body is read (quota-gate.ts), so a
   * flood past its quota costs the receiver little.
   */
  spent(projectId: string, kind: EventKind, policy: ResolvedPolicy): Refusal | null {
    const quota = policy.quotas[kind];
    const spike = policy.spikeGuard.enabled ? this.spikeLimit(projectId, kind, policy).limit : null;
    const minuteLimit = minOf(quota.perMinute, spike);
    if (minuteLimit !== null) {
      const d = this.perMinute.spent(scope(projectId, kind, 'm'), minuteLimit);
      if (d)
        return {
          reason: spike !== null && minuteLimit === spike && (quota.perMinute === null || spike < quota.perMinute) ? 'spike_guard' : 'quota_per_minute',
          retryAfterSeconds: d.resetSeconds,
          limit: d.limit,
        };
    }
    if (quota.perDay !== null) {
      const d = this.perDay.spent(scope(projectId, kind, 'd'), quota.perDay);
      if (d) return { reason: 'quota_per_day', retryAfterSeconds: d.resetSeconds, limit: d.limit };
    }
    return null;
  }

  /** Returns events admitted but not produced after all (another kind of the request was refused, Kafka failed). */
  giveBack(projectId: string, kind: EventKind, n: number, policy: ResolvedPolicy): void {
    if (policy.quotas[kind].perMinute !== null || policy.spikeGuard.enabled) this.perMinute.giveBack(scope(projectId, kind, 'm'), n);
    if (policy.quotas[kind].perDay !== null) this.perDay.giveBack(scope(projectId, kind, 'd'), n);
  }

  /** K times the baseline, at least the guard's floor (null while the baseline is not known), and the use to expect. */
  private spikeLimit(projectId: string, kind: EventKind, policy: ResolvedPolicy): { limit: number | null; expected: number } {
    const key = scope(projectId, kind, 'm');
    const minute = Math.floor(this.now() / MINUTE) * MINUTE;
    let b = this.baselines.get(key);
    if (!b || (b.minute !== minute && !b.loading)) {
      if (this.baselines.size > 50_000) this.baselines.clear();
      const next: Baseline = { minute, perMinute: b?.perMinute ?? null, loading: true };
      this.baselines.set(key, next);
      b = next;
      this.baseline(key, new Date(minute - BASELINE_MINUTES * MINUTE), new Date(minute))
        .then((total) => {
          next.perMinute = total / BASELINE_MINUTES;
        })
        .catch(() => {}) // PostgreSQL out: the last baseline stands (quota leases say so in the log)
        .finally(() => {
          next.loading = false;
        });
    }
    const floor = policy.spikeGuard.min_per_minute;
    if (b.perMinute === null) return { limit: null, expected: floor };
    return { limit: Math.max(floor, Math.ceil(policy.spikeGuard.factor * b.perMinute)), expected: Math.max(floor, Math.ceil(b.perMinute)) };
  }
}

const scope = (projectId: string, kind: EventKind, window: 'm' | 'd') => `${projectId}:${kind}:${window}`;
const minOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

const WHAT: Record<RefusalReason, string> = {
  quota_per_minute: 'events per minute',
  quota_per_day: 'events per day',
  spike_guard: 'events per minute allowed by the spike guard (a multiple of the recent rate)',
};

/** The 429 a refusal answers (docs/data.md#quotas). */
export const quotaExceeded = (kind: EventKind, r: Refusal) =>
  httpError(429, `Quota exceeded: ${nameOfKind(kind)}, ${r.limit} ${WHAT[r.reason]}`, { 'retry-after': String(r.retryAfterSeconds) });
