import { EVENT_KINDS, type EventKind } from '@devtrail/kinds';

// Outcome counters of this receiver since it started: events accepted per kind (each
// one durable in the log) and requests refused per HTTP status. Served at /metrics.
export class IngestCounters {
  readonly accepted = Object.fromEntries(EVENT_KINDS.map((k) => [k, 0])) as Record<EventKind, number>;
  readonly refused: Record<string, number> = {};
  /** Records refused one by one inside an accepted OTLP request (its partial-success count). */
  readonly rejected = Object.fromEntries(EVENT_KINDS.map((k) => [k, 0])) as Record<EventKind, number>;

  onAccepted(kind: EventKind, count: number): void {
    this.accepted[kind] += count;
  }

  onRejected(kind: EventKind, count: number): void {
    this.rejected[kind] += count;
  }

  onResponse(status: number): void {
    if (status >= 400) this.refused[status] = (this.refused[status] ?? 0) + 1;
  }

  snapshot() {
    return { accepted_events: { ...this.accepted }, refused_requests: { ...this.refused }, rejected_records: { ...this.rejected } };
  }
}
