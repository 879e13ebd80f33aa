import type { ZodError } from 'zod';
import { storeTimestamp } from '@devtrail/column-store/store-domain';
import { EVENT_KINDS, kindOf, utc, type AnyKind, type EventKind, type OtlpOptions, type OtlpUnit } from '@devtrail/kinds';
import type { OtlpSignal } from '@devtrail/otlp';
import type { EventsByKind } from './accept.ts';

// A decoded OTLP export request -> events, by every kind that takes records from its signal
// (libs/kinds/src/<kind>/otlp.ts), each through the kind's native schema and normaliser (the
// one source of validation rules). A record a native request could not carry is refused on
// its own and the rest of the request goes on (OTLP partial success); only the signal's own
// records (log records, spans) count as refused, records derived from them are only named.

export interface Accepted {
  events: EventsByKind;
  /** Records of the request's own signal that were refused. */
  rejected: number;
  /** Why, for the partial-success error_message: the first few reasons, then a count. */
  reasons: string[];
  /** The kind of the signal's own records. */
  primary?: EventKind;
}

const MAX_REASONS = 5;

class Outcome {
  readonly events: EventsByKind = {};
  rejected = 0;
  private readonly reasons: string[] = [];
  private more = 0;

  add(kind: EventKind, list: unknown[]): void {
    if (list.length === 0) return;
    const into = (this.events[kind] ??= []) as unknown[];
    for (const e of list) into.push(e);
  }

  refuse(counted: boolean, reason: string): void {
    if (counted) this.rejected++;
    if (this.reasons.length < MAX_REASONS) this.reasons.push(reason);
    else this.more++;
  }

  result(primary: EventKind | undefined): Accepted {
    const reasons = this.more > 0 ? [...this.reasons, `and ${this.more} more`] : this.reasons;
    return { events: this.events, rejected: this.rejected, reasons, primary };
  }
}

/** The first issue, its path relative to the record (`within`) when it lies inside it. */
const describe = (e: ZodError, within: Array<string | number> = []) => {
  const i = e.issues[0];
  const inside = within.every((step, n) => i.path[n] === step);
  const path = inside ? i.path.slice(within.length) : i.path;
  return `${path.join('.') || '(root)'}: ${i.message}`;
};

/** A derived record keeps its own time (a span's end, an exception's moment) when it is one a timestamp may carry. */
function timed(events: unknown[], unit: OtlpUnit): unknown[] {
  if (unit.timestamp === undefined || !storeTimestamp.safeParse(unit.timestamp).success) return events;
  const at = utc(unit.timestamp);
  for (const e of events) if (e && typeof e === 'object' && 'timestamp' in e) (e as { timestamp: string }).timestamp = at;
  return events;
}

/** One mapped body through the kind's route logic; a refused body of several records is searched record by record. */
function acceptUnit(kind: EventKind, k: AnyKind, unit: OtlpUnit, now: string, out: Outcome): void {
  const counted = k.otlp!.primary;
  const fast = k.fastEvents?.(unit.body, now);
  if (fast) {
    out.add(kind, timed(fast, unit));
    return;
  }
  const parsed = k.request.safeParse(unit.body);
  if (parsed.success) out.add(kind, timed(k.toEvents(parsed.data, now), unit));
  else if (!k.split) out.refuse(counted, `${unit.label}: ${describe(parsed.error)}`);
  else
    k.split(unit.body).forEach((part, i) => {
      const one = k.request.safeParse(part.body);
      if (one.success) out.add(kind, timed(k.toEvents(one.data, now), unit));
      else out.refuse(counted, `${unit.label} ${i}: ${describe(one.error, part.path)}`);
    });
}

export function acceptOtlp(signal: OtlpSignal, request: unknown, now: string, options?: OtlpOptions): Accepted {
  const out = new Outcome();
  // The signal's own kind first, so its refusals lead the reasons.
  const takers = EVENT_KINDS.filter((kind) => kindOf(kind).otlp?.signal === signal).sort((a, b) => Number(kindOf(b).otlp!.primary) - Number(kindOf(a).otlp!.primary));
  for (const kind of takers) {
    const k = kindOf(kind);
    if (!k.otlp) continue;
    const { units, rejected } = k.otlp.map(request as never, options);
    for (const reason of rejected) out.refuse(k.otlp.primary, reason);
    for (const unit of units) acceptUnit(kind, k, unit, now, out);
  }
  return out.result(takers.find((kind) => kindOf(kind).otlp!.primary));
}
