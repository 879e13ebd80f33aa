import { dropConversation, kindOf, parseJsonTexts, type EventKind } from '@devtrail/kinds';
import type { Scrubber } from './scrubber.ts';
import { scrubBudget } from './rule-cost.ts';

/**
 * Scrubs the fields of a kind's events that scrubbing looks at (the kind's `scrubbed` list), in
 * place, under one request's budget. True when it changed anything; false certifies that every
 * value is exactly as it was given (certificate.ts).
 */
export function scrubEvents(kind: EventKind, events: unknown[], scrubber: Scrubber, budget = scrubBudget()): boolean {
  const before = scrubber.edits();
  const fields = kindOf(kind).scrubbed;
  for (const e of events) {
    const o = e as Record<string, unknown>;
    for (const f of fields) {
      const v = o[f.name];
      if (f.how === 'text') {
        if (typeof v === 'string' && v !== '') o[f.name] = scrubber.text(v, budget);
      } else if (v !== null && typeof v === 'object') {
        // Identifier keys the kind declares (an LLM call's session.id) stay as sent, as ids do.
        const kept = f.keeps?.filter((k) => Object.hasOwn(v, k)).map((k) => [k, (v as Record<string, unknown>)[k]] as const);
        scrubber.tree(v, budget);
        for (const [k, x] of kept ?? []) Object.defineProperty(v, k, { value: x, enumerable: true, writable: true, configurable: true });
      }
    }
  }
  return scrubber.edits() !== before;
}

/** A project that turned content capture off: the kind's content fields become their absent value, its conversation keys go (docs/data.md). */
export function dropContent(kind: EventKind, events: unknown[]): void {
  const { content, conversation } = kindOf(kind);
  for (const e of events) {
    const o = e as Record<string, unknown>;
    for (const f of content) o[f.name] = f.absent;
    for (const name of conversation) {
      const v = o[name];
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) dropConversation(v as Record<string, unknown>);
    }
  }
}

/** Tool arguments and results given as JSON text, in the kind's conversation fields, parsed so scrubbing reads them by key (docs/data.md). */
export function parsePayloads(kind: EventKind, events: unknown[]): void {
  const { conversation } = kindOf(kind);
  if (conversation.length === 0) return;
  for (const e of events) for (const name of conversation) parseJsonTexts((e as Record<string, unknown>)[name]);
}
