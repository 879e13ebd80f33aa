import type { ZodError } from 'zod';
import { storeTimestamp } from '@devtrail/column-store/store-domain';
import { utc, type AnyKind, type EventKind, type OtlpUnit } from '@devtrail/kinds';
import type { EventsByKind } from './accept.ts';

// Native request bodies made by a way in that carries many records of several kinds (OTLP,
// the batch route), each taken through its kind's own schema and normaliser (the one source of
// validation rules). A record a native request could not carry is refused on its own and the
// rest of the request goes on (partial success); the refusals are counted, and the first few
// named for the answer.

export interface Accepted {
  events: EventsByKind;
  /** Counted records that were refused. */
  rejected: number;
  /** The same, per kind (the receiver's refused-records counter). */
  rejectedByKind: Partial<Record<EventKind, number>>;
  /** Why, for the partial-success error_message: the first few reasons, then a count. */
  reasons: string[];
}

const MAX_REASONS = 5;

export class Outcome {
  readonly events: EventsByKind = {};
  rejected = 0;
  private readonly rejectedByKind: Partial<Record<EventKind, number>> = {};
  private readonly reasons: string[] = [];
  private more = 0;

  add(kind: EventKind, list: unknown[]): void {
    if (list.length === 0) return;
    const into = (this.events[kind] ??= []) as unknown[];
    for (const e of list) into.push(e);
  }

  refuse(kind: EventKind, counted: boolean, reason: string): void {
    if (counted) {
      this.rejected++;
      this.rejectedByKind[kind] = (this.rejectedByKind[kind] ?? 0) + 1;
    }
    if (this.reasons.length < MAX_REASONS) this.reasons.push(reason);
    else this.more++;
  }

  result(): Accepted {
    const reasons = this.more > 0 ? [...this.reasons, `and ${this.more} more`] : this.reasons;
    return { events: this.events, rejected: this.rejected, rejectedByKind: this.rejectedByKind, reasons };
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

/** One native body through the kind's route logic; a refused body of several records is searched record by record. */
export function acceptUnit(kind: EventKind, k: AnyKind, unit: OtlpUnit, now: string, out: Outcome, counted: boolean): void {
  const fast = k.fastEvents?.(unit.body, now);
  if (fast) {
    out.add(kind, timed(fast, unit));
    return;
  }
  const parsed = k.request.safeParse(unit.body);
  if (parsed.success) out.add(kind, timed(k.toEvents(parsed.data, now), unit));
  else if (!k.split) out.refuse(kind, counted, `${unit.label}: ${describe(parsed.error)}`);
  else
    k.split(unit.body).forEach((part, i) => {
      const one = k.request.safeParse(part.body);
      if (one.success) out.add(kind, timed(k.toEvents(one.data, now), unit));
      else out.refuse(kind, counted, `${unit.label} ${i}: ${describe(one.error, part.path)}`);
    });
}
