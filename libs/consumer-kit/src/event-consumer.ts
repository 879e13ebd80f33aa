import { decodeMessage, UnsupportedVersion, type DeletionEvent, type Envelope, type Topics } from '@devtrail/contract';
import type { EventKind } from '@devtrail/kinds';
import type { ConsumedMessage } from '@devtrail/message-log';
import { followDeletions, type DeletionFollower } from './deletion-follower.ts';
import { createTopicConsumer, ensureGroupTopics, type Decoded, type TopicConsumer, type TopicConsumerOptions } from './topic-consumer.ts';
import { groupTopics } from './group-topics.ts';

// A consumer of one of devtrail's own topics: the kit reads every message version it knows
// (a request's batch of events, or the older one event per message), so a consumer only
// says what to do with events, one at a time or a batch at a time. An event that cannot be
// read, or that a write refuses for good, is dead-lettered alone, re-encoded as a message of
// its own, to the group's own dead-letter topic; the other events of its message go on.
// Forward compatible by default (docs/topics.md, "Evolution"): each event carries `raw`, its
// data as sent (fields this kit does not know included); a message of a newer version than
// the kit knows goes to `unknownVersion`, or is dead-lettered until `redrive` after an upgrade.
// Deletions (docs/topics.md, "Deletions"): an event a deletion covers never reaches the
// consumer (counted as discarded), and `onDeletion` hears of each deletion.

type Base = Omit<TopicConsumerOptions<never>, 'decode' | 'write' | 'topic'>;

export type EventConsumerOptions<K extends EventKind, T> = Base & {
  kind: K;
  /** Topic names (the prefix in use): the kind's topic and the deletions topic are read from here. */
  topics: Topics;
  /** Maps each event once, as it is decoded (a sink makes its table row here). Default: the event itself. */
  map?: (event: Envelope<K>) => T;
  /**
   * A message of a schema version this kit does not know (a newer receiver's): 'dead-letter'
   * (the default: to the group's dead-letter topic, for `redrive` once the kit is upgraded),
   * or a function that takes it raw, in its place in the stream (throw a permanent Failure
   * to dead-letter it after all).
   */
  unknownVersion?: 'dead-letter' | ((message: ConsumedMessage) => Promise<void>);
  /**
   * Deletions: true (the default) reads the deletions topic, leaves out every event a deletion
   * covers and calls `onDeletion` for each; false ignores them (devtrail's own sinks, which read
   * the deletions from PostgreSQL).
   */
  deletions?: boolean;
  /** Hears of each deletion (at least once, in order): forget what it covers in your own store. */
  onDeletion?: (deletion: DeletionEvent) => Promise<void>;
} & ({ write(items: T[]): Promise<unknown>; each?: never } | { each(item: T): Promise<void>; write?: never });

/** An item that is not one of the consumer's events: a message taken raw, or an event a deletion covers. */
class Aside {
  constructor(readonly raw: ConsumedMessage | null) {}
}

export function createEventConsumer<K extends EventKind, T = Envelope<K>>(opts: EventConsumerOptions<K, T>): TopicConsumer {
  const { kind, topics, map, write, each, unknownVersion = 'dead-letter', deletions: honour = true, onDeletion, ...rest } = opts;
  // Events handed over as they are get `raw` (unknown fields included); a `map` reads `data`.
  const decodeOptions = { raw: !map };
  let follower: DeletionFollower | undefined;
  const covered = (e: Envelope<K>) => follower !== undefined && follower.deletions.size > 0 && follower.deletions.covering(e) !== undefined;

  const decode = (m: ConsumedMessage): Decoded<T | Aside> => {
    let d: ReturnType<typeof decodeMessage<K>>;
    try {
      d = decodeMessage(kind, m, decodeOptions);
    } catch (err) {
      if (err instanceof UnsupportedVersion && typeof unknownVersion === 'function')
        return { items: [new Aside(m)], letter: () => m.value ?? Buffer.alloc(0), letterHeaders: {} };
      throw err;
    }
    const rejected = d.rejected.map((r) => ({ value: d.alone(r.event), reason: r.reason }));
    const items: Array<T | Aside> = [];
    let origin: number[] | undefined; // items[i] is events[origin[i]] once an event was left out
    d.events.forEach((e, j) => {
      try {
        items.push(covered(e) ? new Aside(null) : map ? map(e) : (e as unknown as T));
        origin?.push(j);
      } catch (err) {
        // An event the mapping cannot take (a defect in a row conversion) is dead-lettered alone.
        origin ??= Array.from({ length: j }, (_, k) => k);
        rejected.push({ value: d.alone({ event_id: e.event_id, data: e.raw ?? e.data }), reason: `conversion failed: ${(err as Error).message}` });
      }
    });
    return {
      items,
      rejected,
      // Decoded again when needed (rarely): holding `d` here would keep every event's
      // decoded object alive beside its row until the batch is written.
      letter: (i) => {
        const again = decodeMessage(kind, m, { raw: true });
        const e = again.events[origin ? origin[i] : i];
        return again.alone({ event_id: e.event_id, data: e.raw ?? e.data });
      },
      // A letter is one event, as a message of its own: its headers say so (its version, one event).
      letterBase: d.aloneHeaders,
    };
  };

  const consumer = createTopicConsumer<T | Aside>({
    ...rest,
    topic: topics.of(kind),
    decode,
    async write(items) {
      let discarded = 0;
      const mine: T[] = [];
      for (const i of items) {
        if (!(i instanceof Aside)) mine.push(i);
        else if (i.raw && typeof unknownVersion === 'function') await unknownVersion(i.raw);
        else discarded++;
      }
      let r: unknown;
      if (mine.length > 0) r = write ? await write(mine) : await eachOf(mine);
      return discarded + (typeof r === 'number' ? r : 0);
    },
  });
  const eachOf = async (items: T[]) => {
    for (const item of items) await each!(item);
  };
  if (!honour) return consumer;
  const own = groupTopics(rest.groupId);
  const deadLetterTopic = rest.deadLetterTopic ?? own.deadLetter;
  const redriveTopic = rest.redriveTopic === undefined ? own.redrive : rest.redriveTopic;
  return {
    ...consumer,
    async start() {
      // The group's topics first, sized after the topic it reads: the follower's dead letters go there too.
      if (rest.createTopics !== false) await ensureGroupTopics(rest.messageLog, topics.of(kind), redriveTopic ? [deadLetterTopic, redriveTopic] : [deadLetterTopic]);
      // The deletions known now, before the first event is read; then each new one as it comes.
      follower = await followDeletions({ ...rest, deadLetterTopic, topic: topics.deletions(), onDeletion });
      await consumer.start();
    },
    async stop() {
      await consumer.stop();
      await follower?.stop();
    },
  };
}
