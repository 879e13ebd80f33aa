export * from './message-log.ts';
export { createKafkaLog, type KafkaLogOptions } from './kafka-log.ts';
export { createMemoryLog, type MemoryLogOptions } from './memory-log.ts';
export { KAFKA_MAX_MESSAGE_BYTES, minInsyncReplicas } from './kafka-topic-config.ts';
