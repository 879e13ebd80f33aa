import type { Kind } from './kind.ts';
import type { EventOf } from './fields.ts';
import { log } from './log/index.ts';
import { error } from './error/index.ts';
import { span } from './span/index.ts';
import { llm } from './llm/index.ts';
import { session } from './session/index.ts';
import { metric } from './metric/index.ts';
import { score } from './score/index.ts';

// The telemetry kinds, each a folder of its own (kind.ts says what a kind declares). A new
// kind is a new folder and one line here (CONTRIBUTING.md).
export const KINDS = { log, error, span, llm, session, metric, score };

export type EventKind = keyof typeof KINDS;
export const EVENT_KINDS = Object.keys(KINDS) as EventKind[];
/** The normalised event of each kind, as the Kafka envelope carries it. */
export type EventDataByKind = { [K in EventKind]: EventOf<(typeof KINDS)[K]['fields']> };
/** One kind, for code that handles every kind alike. */
export type AnyKind = Kind<Kind['fields'], unknown>;
export const kindOf = (kind: EventKind) => KINDS[kind] as unknown as AnyKind;

/** The kind a plural name (topic suffix, sink name, table) stands for, or undefined. */
export function kindByName(name: string): EventKind | undefined {
  return EVENT_KINDS.find((k) => KINDS[k].name === name);
}

/** The kinds a kind's data includes: itself and the kinds that are part of it (KindSpec.partOf). */
export const kindsWithin = (kind: EventKind): EventKind[] => EVENT_KINDS.filter((k) => k === kind || KINDS[k].partOf === kind);

/** Every table the kinds declare, for the column store's migration. */
export const KIND_TABLES = EVENT_KINDS.map((k) => KINDS[k].tableDef);
