import { BATCH_PATH, DRAIN_PATH, EVENT_KINDS, kindOf, type EventKind } from '@devtrail/kinds';
import { byLabel, refusalReason, type Metrics } from '@devtrail/metrics';
import { OTLP_PATHS } from './otlp-paths.ts';
import { REFUSAL_REASONS as QUOTA_REASONS, type RefusalReason as QuotaReason } from './data/event-quotas.ts';

// The receiver's outcome counters (docs/operations.md#metrics): every request to an ingest
// route ends as accepted events of its kinds, or as one refused request with its reason; a
// project's data policy (docs/data.md) may also hold events back: refused by a quota or the
// spike guard ("rate limited", per reason: events, or requests refused before their body was
// read), or sampled out. They are Prometheus counters; the JSON view of /metrics reads the same ones.

/** The kind an ingest route takes, for the refusals' kind label (OTLP traces count as spans; the batch route, of every kind, as `batch`). */
const KIND_OF_ROUTE: Record<string, EventKind | 'batch'> = {
  ...Object.fromEntries(EVENT_KINDS.map((k) => [kindOf(k).path, k])),
  [DRAIN_PATH]: 'log',
  [OTLP_PATHS.logs]: 'log',
  [OTLP_PATHS.traces]: 'span',
  [BATCH_PATH]: 'batch',
};

export class IngestCounters {
  constructor(private readonly metrics: Metrics) {}

  onAccepted(kind: EventKind, count: number): void {
    this.metrics.m.acceptedEvents.inc({ kind }, count);
  }

  /** Records refused one by one inside an accepted OTLP or batch request (its partial-success count), per kind. */
  onRejectedRecords(byKind: Partial<Record<EventKind, number>>): void {
    for (const [kind, count] of Object.entries(byKind) as Array<[EventKind, number]>) {
      if (count > 0) this.metrics.m.refusedRecords.inc({ kind, reason: 'invalid' }, count);
    }
  }

  /** Events refused with 429 by a project's quota or spike guard. */
  onRateLimited(kind: EventKind, reason: QuotaReason, count: number): void {
    if (count > 0) this.metrics.m.rateLimitedEvents.inc({ kind, reason }, count);
  }

  /** A request refused before its body was read because the kind's quota was spent already. */
  onRateLimitedRequest(kind: EventKind, reason: QuotaReason): void {
    this.metrics.m.rateLimitedRequests.inc({ kind, reason });
  }

  /** Events answered as accepted and not stored because the project samples its kind. */
  onSampledOut(kind: EventKind, count: number): void {
    if (count > 0) this.metrics.m.sampledOutEvents.inc({ kind }, count);
  }

  /** Every answer of an ingest route: a refusal is counted with its reason (a bad drain signature is unauthorized). */
  onResponse(route: string | undefined, status: number): void {
    const kind = route === undefined ? undefined : KIND_OF_ROUTE[route];
    if (status < 400 || !kind) return;
    const reason = status === 403 && route === DRAIN_PATH ? 'unauthorized' : refusalReason(status);
    this.metrics.m.refusedRequests.inc({ kind, reason, status_code: status });
  }

  /** The JSON view: accepted events per kind, refused requests per status, refused OTLP records per kind, the data policy's outcomes. */
  async snapshot() {
    const perKindAndReason = async (key: 'rateLimitedEvents' | 'rateLimitedRequests') => {
      const series = await this.metrics.values(key);
      return Object.fromEntries(
        EVENT_KINDS.map((k) => [
          k,
          byLabel(
            series.filter((s) => s.labels.kind === k),
            'reason',
            QUOTA_REASONS,
          ),
        ]),
      ) as Record<EventKind, Record<QuotaReason, number>>;
    };
    return {
      accepted_events: byLabel(await this.metrics.values('acceptedEvents'), 'kind', EVENT_KINDS),
      refused_requests: byLabel(await this.metrics.values('refusedRequests'), 'status_code'),
      rejected_records: byLabel(await this.metrics.values('refusedRecords'), 'kind', EVENT_KINDS),
      rate_limited_events: await perKindAndReason('rateLimitedEvents'),
      rate_limited_requests: await perKindAndReason('rateLimitedRequests'),
      sampled_out_events: byLabel(await this.metrics.values('sampledOutEvents'), 'kind', EVENT_KINDS),
    };
  }
}
