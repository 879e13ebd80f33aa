export {
  createTopicConsumer,
  type TopicConsumer,
  type TopicConsumerOptions,
  type ConsumerStats,
  type Decoded,
  type ConsumerHooks,
  type FlushTiming,
  type DeadLetterReason,
  type DeadLetter,
} from './topic-consumer.ts';
export { createEventConsumer, type EventConsumerOptions } from './event-consumer.ts';
export { DLQ_HEADERS, deadLetter } from './dead-letter.ts';
export { readDeletionHistory } from './deletion-history.ts';
export { redrive, RedriveError, REDRIVEN_FROM_HEADER, type RedriveOptions, type RedriveResult } from './redrive.ts';
export { groupTopics } from './group-topics.ts';
