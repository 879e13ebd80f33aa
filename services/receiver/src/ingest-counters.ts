import { EVENT_KINDS, type EventKind } from '@devtrail/kinds';
import { REFUSAL_REASONS, type RefusalReason } from './data/event-quotas.ts';

// Outcome counters of this receiver since it started: events accepted per kind (each
// one durable in the log), requests refused per HTTP status, and events a project's data
// policy held back (docs/data.md): refused by a quota or the spike guard ("rate limited",
// per reason: events, or requests refused before their body was read), or sampled out.
// Served at /metrics.
const perKind = () => Object.fromEntries(EVENT_KINDS.map((k) => [k, 0])) as Record<EventKind, number>;

export class IngestCounters {
  readonly accepted = perKind();
  readonly refused: Record<string, number> = {};
  /** Records refused one by one inside an accepted OTLP request (its partial-success count). */
  readonly rejected = perKind();
  /** Events refused with 429 by a project's quota or spike guard, per kind and reason. */
  readonly rateLimited = Object.fromEntries(EVENT_KINDS.map((k) => [k, Object.fromEntries(REFUSAL_REASONS.map((r) => [r, 0]))])) as Record<
    EventKind,
    Record<RefusalReason, number>
  >;
  /** Requests refused before their body was read because the kind's quota was spent already (their events unknown). */
  readonly rateLimitedRequests = Object.fromEntries(EVENT_KINDS.map((k) => [k, Object.fromEntries(REFUSAL_REASONS.map((r) => [r, 0]))])) as Record<
    EventKind,
    Record<RefusalReason, number>
  >;
  /** Events answered as accepted and not stored because the project samples its kind. */
  readonly sampledOut = perKind();

  onAccepted(kind: EventKind, count: number): void {
    this.accepted[kind] += count;
  }

  onRejected(kind: EventKind, count: number): void {
    this.rejected[kind] += count;
  }

  onRateLimited(kind: EventKind, reason: RefusalReason, count: number): void {
    this.rateLimited[kind][reason] += count;
  }

  onRateLimitedRequest(kind: EventKind, reason: RefusalReason): void {
    this.rateLimitedRequests[kind][reason]++;
  }

  onSampledOut(kind: EventKind, count: number): void {
    this.sampledOut[kind] += count;
  }

  onResponse(status: number): void {
    if (status >= 400) this.refused[status] = (this.refused[status] ?? 0) + 1;
  }

  snapshot() {
    return {
      accepted_events: { ...this.accepted },
      refused_requests: { ...this.refused },
      rejected_records: { ...this.rejected },
      rate_limited_events: Object.fromEntries(EVENT_KINDS.map((k) => [k, { ...this.rateLimited[k] }])),
      rate_limited_requests: Object.fromEntries(EVENT_KINDS.map((k) => [k, { ...this.rateLimitedRequests[k] }])),
      sampled_out_events: { ...this.sampledOut },
    };
  }
}
