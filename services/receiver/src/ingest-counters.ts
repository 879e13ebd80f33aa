import type { EventKind } from '@devtrail/contract';

// Outcome counters of this receiver since it started: events accepted per kind (each
// one durable in the log) and requests refused per HTTP status. Served at /metrics.
export class IngestCounters {
  readonly accepted: Record<EventKind, number> = { log: 0, error: 0, span: 0, llm: 0 };
  readonly refused: Record<string, number> = {};

  onAccepted = (kind: EventKind, _projectId: string, count: number): void => {
    this.accepted[kind] += count;
  };

  onRefused(status: number): void {
    this.refused[status] = (this.refused[status] ?? 0) + 1;
  }

  snapshot() {
    return { accepted_events: { ...this.accepted }, refused_requests: { ...this.refused } };
  }
}
