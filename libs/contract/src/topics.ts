import { EVENT_KINDS, KINDS, type EventKind } from '@devtrail/kinds';

// Kafka topics: one per telemetry kind plus a dead-letter topic each. Outside
// consumers depend on these names (docs/topics.md).
export interface Topics {
  of(kind: EventKind): string;
  deadLetterOf(kind: EventKind): string;
  all(): string[];
}

export function topicNames(prefix: string): Topics {
  const of = (kind: EventKind) => `${prefix}${KINDS[kind].name}`;
  const deadLetterOf = (kind: EventKind) => `${of(kind)}.dlq`;
  return { of, deadLetterOf, all: () => EVENT_KINDS.flatMap((k) => [of(k), deadLetterOf(k)]) };
}
