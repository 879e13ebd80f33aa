import type { ConsumedMessage, OutgoingMessage } from '@devtrail/message-log';

// A dead letter is the original message, bytes untouched, plus headers that say where
// it came from and why it can never be written (docs/topics.md).
export const DLQ_HEADERS = {
  reason: 'dt-dlq-reason',
  sourceTopic: 'dt-dlq-source-topic',
  sourcePartition: 'dt-dlq-source-partition',
  sourceOffset: 'dt-dlq-source-offset',
  consumer: 'dt-dlq-consumer',
  at: 'dt-dlq-at',
} as const;

export function deadLetter(m: ConsumedMessage, consumer: string, reason: string): OutgoingMessage {
  return {
    key: m.key,
    value: m.value ?? Buffer.alloc(0),
    headers: {
      ...m.headers,
      [DLQ_HEADERS.reason]: reason.slice(0, 1000),
      [DLQ_HEADERS.sourceTopic]: m.topic,
      [DLQ_HEADERS.sourcePartition]: String(m.partition),
      [DLQ_HEADERS.sourceOffset]: m.offset,
      [DLQ_HEADERS.consumer]: consumer,
      [DLQ_HEADERS.at]: new Date().toISOString(),
    },
  };
}
