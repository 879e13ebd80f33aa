import { createTopicConsumer, envelopeDecoder } from '@devtrail/consumer-kit';
import type { MessageLog } from '@devtrail/message-log';
import type { Envelope } from '@devtrail/contract';

// Example of an outside consumer (docs/topics.md, "Add your own consumer"): counts log
// events per project and minute. The kit does decoding, batching, commits, dead letters
// and shutdown; this file only says what to do with a batch. Counting by distinct
// event id keeps the numbers right when a batch is redelivered.
export function eventsPerMinute(messageLog: MessageLog, topic: string) {
  const seen = new Map<string, Set<string>>(); // "project|minute" -> event ids
  const consumer = createTopicConsumer<Envelope<'log'>>({
    name: 'events-per-minute',
    messageLog,
    groupId: 'example-events-per-minute',
    topic,
    deadLetterTopic: `${topic}.dlq`,
    decode: envelopeDecoder('log'),
    async write(events) {
      for (const e of events) {
        const bucket = `${e.project_id}|${e.data.timestamp.slice(0, 16)}`;
        if (!seen.has(bucket)) seen.set(bucket, new Set());
        seen.get(bucket)!.add(e.event_id);
      }
    },
    batchMs: 500,
  });
  return {
    ...consumer,
    counts: () => new Map([...seen].map(([k, ids]) => [k, ids.size])),
  };
}
