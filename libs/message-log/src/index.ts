export * from './message-log.ts';
export { createKafkaLog, type KafkaLogOptions } from './kafka-log.ts';
export { createMemoryLog, type MemoryLogOptions } from './memory-log.ts';
