import { decodeMessage, HEADERS, type Envelope, type Topics } from '@devtrail/contract';
import type { EventKind } from '@devtrail/kinds';
import type { ConsumedMessage } from '@devtrail/message-log';
import { createTopicConsumer, type Decoded, type TopicConsumer, type TopicConsumerOptions } from './topic-consumer.ts';

// A consumer of one of devtrail's own topics: the kit reads both message versions
// (a request's batch of events, or the older one event per message), so a consumer
// only says what to do with events, one at a time or a batch at a time. An event that
// cannot be read, or that a write refuses for good, is dead-lettered alone, re-encoded
// as a message of its own; the other events of its message go on.

type Base = Omit<TopicConsumerOptions<never>, 'decode' | 'write' | 'topic' | 'deadLetterTopic'>;

export type EventConsumerOptions<K extends EventKind, T> = Base & {
  kind: K;
  /** Topic names (the prefix in use); the kind's topic and its dead-letter topic are read from here. */
  topics: Topics;
  /** Maps each event once, as it is decoded (a sink makes its table row here). Default: the event itself. */
  map?: (event: Envelope<K>) => T;
} & ({ write(items: T[]): Promise<unknown>; each?: never } | { each(item: T): Promise<void>; write?: never });

export function createEventConsumer<K extends EventKind, T = Envelope<K>>(opts: EventConsumerOptions<K, T>): TopicConsumer {
  const { kind, topics, map, write, each, ...rest } = opts;
  const letterHeaders = { [HEADERS.eventCount]: '1' };
  const decode = (m: ConsumedMessage): Decoded<T> => {
    const d = decodeMessage(kind, m.value);
    const rejected = d.rejected.map((r) => ({ value: d.alone(r.event), reason: r.reason }));
    let items = d.events as unknown as T[];
    let origin: number[] | undefined; // items[i] is events[origin[i]] once an event was left out
    if (map) {
      // An event the mapping cannot take (a defect in a row conversion) is dead-lettered alone.
      items = [];
      d.events.forEach((e, j) => {
        try {
          items.push(map(e));
          origin?.push(j);
        } catch (err) {
          origin ??= Array.from({ length: j }, (_, k) => k);
          rejected.push({ value: d.alone({ event_id: e.event_id, data: e.data }), reason: `conversion failed: ${(err as Error).message}` });
        }
      });
    }
    return {
      items,
      rejected,
      // Decoded again when needed (rarely): holding `d` here would keep every event's
      // decoded object alive beside its row until the batch is written.
      letter: (i) => {
        const again = decodeMessage(kind, m.value);
        const e = again.events[origin ? origin[i] : i];
        return again.alone({ event_id: e.event_id, data: e.data });
      },
      letterHeaders,
    };
  };
  return createTopicConsumer<T>({
    ...rest,
    topic: topics.of(kind),
    deadLetterTopic: topics.deadLetterOf(kind),
    decode,
    write:
      write ??
      (async (items) => {
        for (const item of items) await each!(item);
      }),
  });
}
