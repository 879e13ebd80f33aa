export {
  createTopicConsumer,
  type TopicConsumer,
  type TopicConsumerOptions,
  type ConsumerStats,
  type Decoded,
  type ConsumerHooks,
  type DeadLetterReason,
} from './topic-consumer.ts';
export { createEventConsumer, type EventConsumerOptions } from './event-consumer.ts';
export { DLQ_HEADERS, deadLetter } from './dead-letter.ts';
