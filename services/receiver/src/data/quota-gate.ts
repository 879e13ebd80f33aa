import type { FastifyRequest } from 'fastify';
import { DRAIN_KIND, DRAIN_PATH, EVENT_KINDS, kindOf, type EventKind } from '@devtrail/kinds';
import type { OtlpSignal } from '@devtrail/otlp';
import { OTLP_PATHS } from '../otlp-paths.ts';
import { quotaExceeded, type EventQuotas } from './event-quotas.ts';
import type { GrantPolicies } from './grant-policy.ts';
import type { IngestCounters } from '../ingest-counters.ts';

// An onRequest step of the ingest path (ingest-routes.ts): a project whose quota for the
// route's kind is already spent in this window gets its 429 before the body is read,
// decompressed and parsed, so a flood refused by its quota costs the receiver about what
// a rate-limited request costs (docs/data.md#quotas-and-spike-protection). Counted per
// request (its events are not known). Requests that still fit are admitted or refused
// by their events in the accept step (admit.ts).

/** The kind each ingest route's events are counted against first. */
const ROUTE_KINDS: Record<string, EventKind> = {
  ...Object.fromEntries(EVENT_KINDS.map((k) => [kindOf(k).path, k])),
  [DRAIN_PATH]: DRAIN_KIND,
  [OTLP_PATHS.logs]: primaryOf('logs'),
  [OTLP_PATHS.traces]: primaryOf('traces'),
  [OTLP_PATHS.metrics]: primaryOf('metrics'),
};

function primaryOf(signal: OtlpSignal): EventKind {
  const kind = EVENT_KINDS.find((k) => kindOf(k).otlp?.signal === signal && kindOf(k).otlp?.primary);
  if (!kind) throw new Error(`no kind takes the OTLP ${signal} signal's own records`);
  return kind;
}

export function quotaGate(d: { policies: GrantPolicies; quotas: EventQuotas; counters: IngestCounters }) {
  return async (request: FastifyRequest) => {
    const kind = ROUTE_KINDS[request.routeOptions.url ?? ''];
    if (!kind) return;
    const grant = request.grant!;
    const refusal = d.quotas.spent(grant.projectId, kind, d.policies.of(grant).policy);
    if (!refusal) return;
    d.counters.onRateLimitedRequest(kind, refusal.reason);
    throw quotaExceeded(kind, refusal);
  };
}
