import { decodeDeletion, Deletions, type DeletionEvent } from '@devtrail/contract';
import { readDeletionHistory } from './deletion-history.ts';
import { createTopicConsumer, type TopicConsumer, type TopicConsumerOptions } from './topic-consumer.ts';

// The deletions an event consumer honours (docs/topics.md, "Deletions"): every one the topic
// holds when it starts (read outside any group, so a restart knows them all before its first
// event), then each new one as it is published, read in the group `<groupId>.deletions`,
// which also hands each deletion to `onDeletion` at least once (after a restart, from its commit).

export interface DeletionFollower {
  deletions: Deletions;
  stop(): Promise<void>;
}

type Options = Pick<
  TopicConsumerOptions<never>,
  'messageLog' | 'groupId' | 'name' | 'logger' | 'onDeadLetter' | 'sessionTimeoutMs' | 'heartbeatIntervalMs' | 'retryMaxMs'
> & {
  topic: string;
  /** The group's dead-letter topic (the event consumer's, which creates it: this follower creates none). */
  deadLetterTopic: string;
  onDeletion?: (deletion: DeletionEvent) => Promise<void>;
};

export async function followDeletions(o: Options): Promise<DeletionFollower> {
  const deletions = new Deletions();
  try {
    const { deletions: known, unreadable } = await readDeletionHistory(o.messageLog, o.topic);
    for (const d of known) deletions.add(d);
    if (unreadable.length > 0) o.logger?.warn({ consumer: o.name, unreadable: unreadable.slice(0, 3) }, 'deletions this kit cannot read: upgrade it');
  } catch (err) {
    // A devtrail older than deletions as events has no such topic: nothing to honour.
    o.logger?.warn({ consumer: o.name, topic: o.topic, err: (err as Error).message }, 'deletions topic not readable: deletions are not honoured');
    return { deletions, stop: async () => {} };
  }
  const live: TopicConsumer = createTopicConsumer<DeletionEvent>({
    name: `${o.name}-deletions`,
    messageLog: o.messageLog,
    groupId: `${o.groupId}.deletions`,
    topic: o.topic,
    // The group's own topic, made by the event consumer with as many partitions as the topic it
    // reads, not by this follower after the deletions topic (one partition).
    deadLetterTopic: o.deadLetterTopic,
    createTopics: false,
    redriveTopic: null,
    logger: o.logger,
    onDeadLetter: o.onDeadLetter,
    sessionTimeoutMs: o.sessionTimeoutMs,
    heartbeatIntervalMs: o.heartbeatIntervalMs,
    retryMaxMs: o.retryMaxMs,
    batchMs: 100,
    decode: (m) => ({ items: [decodeDeletion(m.value)] }),
    async write(items) {
      for (const d of items) {
        deletions.add(d);
        await o.onDeletion?.(d);
      }
    },
  });
  await live.start();
  return { deletions, stop: () => live.stop() };
}
