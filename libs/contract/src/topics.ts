// Kafka topics: one per telemetry kind plus a dead-letter topic each. Outside
// consumers depend on these names (docs/topics.md).
export const EVENT_KINDS = ['log', 'error', 'span', 'llm'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

const TOPIC_SUFFIX: Record<EventKind, string> = { log: 'logs', error: 'errors', span: 'spans', llm: 'llm' };

export interface Topics {
  of(kind: EventKind): string;
  deadLetterOf(kind: EventKind): string;
  all(): string[];
}

export function topicNames(prefix: string): Topics {
  const of = (kind: EventKind) => `${prefix}${TOPIC_SUFFIX[kind]}`;
  const deadLetterOf = (kind: EventKind) => `${of(kind)}.dlq`;
  return { of, deadLetterOf, all: () => EVENT_KINDS.flatMap((k) => [of(k), deadLetterOf(k)]) };
}
