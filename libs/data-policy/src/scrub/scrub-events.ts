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
      } else if (v !== null && typeof v === 'object') {
        // Identifier keys the kind declares (an LLM call's session.id) stay as sent, as ids do.
        const kept = f.keeps?.filter((k) => Object.hasOwn(v, k)).map((k) => [k, (v as Record<string, unknown>)[k]] as const);
        scrubber.tree(v);
        for (const [k, x] of kept ?? []) Object.defineProperty(v, k, { value: x, enumerable: true, writable: true, configurable: true });
      }
    }
  }
}

/** A project that turned content capture off: the kind's content fields become their absent value (docs/data.md). */
export function dropContent(kind: EventKind, events: unknown[]): void {
  const fields = kindOf(kind).content;
  if (fields.length === 0) return;
  for (const e of events) for (const f of fields) (e as Record<string, unknown>)[f.name] = f.absent;
}
