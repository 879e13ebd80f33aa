export { createTopicConsumer, type TopicConsumer, type TopicConsumerOptions, type ConsumerStats, type Decoded } from './topic-consumer.ts';
export { createEventConsumer, type EventConsumerOptions } from './event-consumer.ts';
export { DLQ_HEADERS, deadLetter } from './dead-letter.ts';
