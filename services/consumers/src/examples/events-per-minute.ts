import { createEventConsumer } from '@devtrail/consumer-kit';
import type { MessageLog } from '@devtrail/message-log';
import type { Topics } from '@devtrail/contract';

// Example of an outside consumer (docs/topics.md, "Add your own consumer"): counts log
// events per project and minute. The kit does decoding (a request's batch of events
// arrives one event at a time here), commits, dead letters and shutdown; this file only
// says what to do with an event. Counting by distinct event id keeps the numbers right
// when a message is redelivered.
/** `groupId`: its consumer group, whose own dead-letter topic is `<groupId>.dlq`. */
export function eventsPerMinute(messageLog: MessageLog, topics: Topics, groupId = 'example-events-per-minute') {
  const seen = new Map<string, Set<string>>(); // "project|minute" -> event ids
  const consumer = createEventConsumer({
    kind: 'log',
    topics,
    name: 'events-per-minute',
    messageLog,
    groupId,
    async each(e) {
      const bucket = `${e.project_id}|${e.data.timestamp.slice(0, 16)}`;
      if (!seen.has(bucket)) seen.set(bucket, new Set());
      seen.get(bucket)!.add(e.event_id);
    },
    batchMs: 500,
  });
  return {
    ...consumer,
    counts: () => new Map([...seen].map(([k, ids]) => [k, ids.size])),
  };
}
