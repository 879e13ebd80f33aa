import { kindOf, type EventKind } from '@devtrail/kinds';
import type { BatchEvent } from '@devtrail/contract';
import { dropContent, keepTrace, parsePayloads, scrubEvents, type ScrubBudget } from '@devtrail/data-policy';
import type { KeyGrant } from '@devtrail/relational-store';
import type { GrantPolicies, GrantPolicy } from './grant-policy.ts';
import { quotaExceeded, type EventQuotas } from './event-quotas.ts';
import type { IngestCounters } from '../ingest-counters.ts';

// The project's data policy in the accept step (accept.ts), after validation and before
// Kafka (docs/data.md): sample (logs and spans, by trace), take the events from the quotas
// (429 past one, counted), scrub. Sampled-out and refused events are counted, never
// silently dropped.

export interface DataDeps {
  policies: GrantPolicies;
  quotas: EventQuotas;
  counters: IngestCounters;
}

export interface Admitted<K extends EventKind = EventKind> {
  kind: K;
  events: Array<BatchEvent<K>>;
  policy: GrantPolicy;
}

/**
 * The events to produce, after sampling and quotas; throws the 429 of a quota (its events
 * counted as rate limited). An event without a trace id is sampled by its event id, so a
 * retry with the same Idempotency-Key keeps the same events.
 */
export function admit<K extends EventKind>(d: DataDeps, grant: KeyGrant, kind: K, events: Array<BatchEvent<K>>): Admitted<K> {
  const gp = d.policies.of(grant);
  const rate = gp.policy.sampling[kind];
  let kept = events;
  if (rate < 1) {
    kept = events.filter((e) => keepTrace((e.data as { trace_id?: string }).trace_id || e.event_id, rate));
    if (kept.length < events.length) d.counters.onSampledOut(kind, events.length - kept.length);
  }
  if (kept.length > 0) {
    const refusal = d.quotas.admit(grant.projectId, kind, kept.length, gp.policy);
    if (refusal) {
      d.counters.onRateLimited(kind, refusal.reason, kept.length);
      throw quotaExceeded(kind, refusal);
    }
  }
  return { kind, events: kept, policy: gp };
}

/** Every kind of a request admitted, or none: a refusal gives back what the kinds before it took. */
export function admitAll(d: DataDeps, grant: KeyGrant, byKind: Array<[EventKind, unknown[]]>): Admitted[] {
  const done: Admitted[] = [];
  try {
    for (const [kind, events] of byKind) done.push(admit(d, grant, kind, events as never));
  } catch (err) {
    for (const a of done) giveBack(d, grant, a);
    throw err;
  }
  return done;
}

/** Events admitted and then not produced (Kafka refused, another kind failed): their quota is spent again. */
export function giveBack(d: DataDeps, grant: KeyGrant, a: Admitted): void {
  if (a.events.length > 0) d.quotas.giveBack(grant.projectId, a.kind, a.events.length, a.policy.policy);
}

/**
 * Scrubbing at the door, in place (docs/data.md#scrubbing): conversation dropped when the project
 * keeps none, tool arguments and results given as JSON text parsed, then the kind's scrubbed
 * fields, every rule under the request's one budget. False certifies that the events are exactly
 * as they were given (the request may go to Kafka as sent, with the policy's certificate).
 */
export function scrub(a: Admitted, budget?: ScrubBudget): boolean {
  if (a.events.length === 0) return false;
  const data = a.events.map((e) => e.data);
  const k = kindOf(a.kind);
  // Dropping content and parsing tool payloads are changes whenever the kind has such fields.
  let changed = k.conversation.length > 0;
  if (!a.policy.policy.llm.capture_content) {
    dropContent(a.kind, data);
    changed ||= k.content.length > 0;
  }
  parsePayloads(a.kind, data);
  if (a.policy.scrubber) changed = scrubEvents(a.kind, data, a.policy.scrubber, budget) || changed;
  return changed;
}
