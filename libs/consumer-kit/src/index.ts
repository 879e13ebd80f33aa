export { createTopicConsumer, type TopicConsumer, type TopicConsumerOptions, type ConsumerStats } from './topic-consumer.ts';
export { DLQ_HEADERS, deadLetter } from './dead-letter.ts';
export { envelopeDecoder } from './envelope-decoder.ts';
