import { deletionEventOf, encodeDeletion, type Topics } from '@devtrail/contract';
import type { MessageLog, Producer } from '@devtrail/message-log';
import type { Deletion } from '@devtrail/relational-store';

// Deletions go to the deletions topic (docs/topics.md, "Deletions") before the worker carries
// them out; the producer is made on first use (a dashboard that never deletes never connects
// to Kafka), and a failed send throws, so the worker tries again at its next step.
export function deletionPublisher(messageLog: MessageLog, topics: Topics): (deletions: Deletion[]) => Promise<void> {
  let producer: Producer | undefined;
  return async (deletions) => {
    producer ??= messageLog.createProducer();
    const messages = deletions.map((d) => encodeDeletion(deletionEventOf({ ...d, filter: d.filter as Record<string, string> })));
    await producer.send([{ topic: topics.deletions(), messages }]);
  };
}
