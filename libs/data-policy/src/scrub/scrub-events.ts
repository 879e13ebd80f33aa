import { kindOf, type EventKind } from '@devtrail/kinds';
import type { Scrubber } from './scrubber.ts';

/** Scrubs the fields of a kind's events that scrubbing looks at (the kind's `scrubbed` list), in place. */
export function scrubEvents(kind: EventKind, events: unknown[], scrubber: Scrubber): void {
  const fields = kindOf(kind).scrubbed;
  for (const e of events) {
    const o = e as Record<string, unknown>;
    for (const f of fields) {
      const v = o[f.name];
      if (f.how === 'text') {
        if (typeof v === 'string' && v !== '') o[f.name] = scrubber.text(v);
      } else if (v !== null && typeof v === 'object') scrubber.tree(v);
    }
  }
}
