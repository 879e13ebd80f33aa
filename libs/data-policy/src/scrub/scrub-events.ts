import { kindOf, type EventKind } from '@devtrail/kinds';
import type { Scrubber } from './scrubber.ts';
import { scrubBudget } from './rule-cost.ts';

/** Scrubs the fields of a kind's events that scrubbing looks at (the kind's `scrubbed` list), in place, under one request's budget. */
export function scrubEvents(kind: EventKind, events: unknown[], scrubber: Scrubber, budget = scrubBudget()): void {
  const fields = kindOf(kind).scrubbed;
  for (const e of events) {
    const o = e as Record<string, unknown>;
    for (const f of fields) {
      const v = o[f.name];
      if (f.how === 'text') {
        if (typeof v === 'string' && v !== '') o[f.name] = scrubber.text(v, budget);
      } else if (v !== null && typeof v === 'object') scrubber.tree(v, budget);
    }
  }
}
