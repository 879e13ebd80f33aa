import { EVENT_KINDS, KINDS, type EventKind } from '@devtrail/kinds';

// Kafka topics: one per telemetry kind plus a dead-letter topic each, and the deletions
// topic. Outside consumers depend on these names (docs/topics.md).
export interface Topics {
  of(kind: EventKind): string;
  deadLetterOf(kind: EventKind): string;
  /** Every deletion of stored events (deletions.ts): one partition, kept forever. */
  deletions(): string;
  /** The kinds' topics and their dead-letter topics (not the deletions topic: it is created with its own settings). */
  all(): string[];
}

/** The deletions topic's settings: one partition (one order for everyone), never deleted by retention. */
export const DELETIONS_TOPIC = { partitions: 1, config: { 'retention.ms': '-1' } } as const;

export function topicNames(prefix: string): Topics {
  const of = (kind: EventKind) => `${prefix}${KINDS[kind].name}`;
  const deadLetterOf = (kind: EventKind) => `${of(kind)}.dlq`;
  return { of, deadLetterOf, deletions: () => `${prefix}deletions`, all: () => EVENT_KINDS.flatMap((k) => [of(k), deadLetterOf(k)]) };
}
