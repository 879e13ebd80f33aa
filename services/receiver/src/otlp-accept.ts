import { EVENT_KINDS, kindOf, type OtlpOptions } from '@devtrail/kinds';
import type { OtlpSignal } from '@devtrail/otlp';
import { acceptUnit, Outcome, type Accepted } from './accept-units.ts';

// A decoded OTLP export request -> events, by every kind that takes records from its signal
// (libs/kinds/src/<kind>/otlp.ts), each through the kind's native schema and normaliser (the
// one source of validation rules). A record a native request could not carry is refused on
// its own and the rest of the request goes on (OTLP partial success); only the signal's own
// records (log records, spans) count as refused, records derived from them are only named.

export function acceptOtlp(signal: OtlpSignal, request: unknown, now: string, options?: OtlpOptions): Accepted {
  const out = new Outcome();
  // The signal's own kind first, so its refusals lead the reasons.
  const takers = EVENT_KINDS.filter((kind) => kindOf(kind).otlp?.signal === signal).sort((a, b) => Number(kindOf(b).otlp!.primary) - Number(kindOf(a).otlp!.primary));
  for (const kind of takers) {
    const k = kindOf(kind);
    if (!k.otlp) continue;
    const { units, rejected } = k.otlp.map(request as never, options);
    for (const reason of rejected) out.refuse(kind, k.otlp.primary, reason);
    for (const unit of units) acceptUnit(kind, k, unit, now, out, k.otlp.primary);
  }
  return out.result();
}
