import { encodeBatch, newEvents, type Topics } from '@devtrail/contract';
import type { ScoreEvent } from '@devtrail/kinds';
import type { MessageLog, Producer } from '@devtrail/message-log';

// An annotation goes to the scores topic as the receiver's scores do (docs/topics.md), so the
// scores sink stores it like any other; the answer waits for Kafka's acknowledgement, so a 200
// means the score is in the log. The producer is made on first use, as the deletions' is.

export type PublishScore = (projectId: string, event: ScoreEvent, retentionDays: number) => Promise<string>;

export function scorePublisher(messageLog: MessageLog, topics: Topics): PublishScore {
  let producer: Producer | undefined;
  return async (projectId, event, retentionDays) => {
    producer ??= messageLog.createProducer();
    const events = newEvents<'score'>([event]);
    await producer.send([{ topic: topics.of('score'), messages: [encodeBatch('score', projectId, new Date().toISOString(), events, retentionDays)] }]);
    return events[0].event_id;
  };
}
