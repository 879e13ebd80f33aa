import type { ConsumedMessage, OutgoingMessage } from '@devtrail/message-log';

// A dead letter is what could never be written, with headers that say where it came
// from and why (docs/topics.md): a whole message, bytes untouched, when it cannot be
// read at all; one event of a batch, re-encoded as a message of its own, otherwise.
export const DLQ_HEADERS = {
  reason: 'dt-dlq-reason',
  sourceTopic: 'dt-dlq-source-topic',
  sourcePartition: 'dt-dlq-source-partition',
  sourceOffset: 'dt-dlq-source-offset',
  consumer: 'dt-dlq-consumer',
  at: 'dt-dlq-at',
} as const;

/**
 * `value` defaults to the source message's own bytes; `headers` override `base`, the source's
 * own headers unless the letter is a message of another version (a re-encoded event of a
 * version-3 message: its headers describe its own value).
 */
export function deadLetter(
  m: ConsumedMessage,
  consumer: string,
  reason: string,
  value?: Buffer,
  headers: Record<string, string> = {},
  base = m.headers,
): OutgoingMessage {
  return {
    key: m.key,
    value: value ?? m.value ?? Buffer.alloc(0),
    headers: {
      ...base,
      ...headers,
      [DLQ_HEADERS.reason]: reason.slice(0, 1000),
      [DLQ_HEADERS.sourceTopic]: m.topic,
      [DLQ_HEADERS.sourcePartition]: String(m.partition),
      [DLQ_HEADERS.sourceOffset]: m.offset,
      [DLQ_HEADERS.consumer]: consumer,
      [DLQ_HEADERS.at]: new Date().toISOString(),
    },
  };
}
