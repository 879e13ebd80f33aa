// The surface of the published package (`npm run build -w @devtrail/consumer-kit`, README.md):
// the kit, and what a consumer outside devtrail's repository needs beside it, so one
// dependency is enough. Inside the repository, services import the workspace packages.
export * from './index.ts';
export { createKafkaLog, createMemoryLog, MessageLogError, type KafkaLogOptions, type MessageLog, type ConsumedMessage, type TopicPosition } from '@devtrail/message-log';
export {
  decodeMessage,
  DecodeError,
  UnsupportedVersion,
  decodeDeletion,
  covers,
  Deletions,
  type DeletionEvent,
  HEADERS,
  SCHEMA_VERSION,
  topicNames,
  type BatchEnvelope,
  type BatchEvent,
  type DecodedMessage,
  type Envelope,
  type Topics,
} from '@devtrail/contract';
export { Failure, isRetryable } from '@devtrail/failures';
export { EVENT_KINDS, type EventDataByKind, type EventKind, type ErrorEvent, type LlmEvent, type LogEvent, type SpanEvent } from '@devtrail/kinds';
