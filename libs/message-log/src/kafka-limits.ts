// The largest record batch devtrail's Kafka topics accept (topic config max.message.bytes).
// One request becomes one message: up to 5 MiB of body after decompression (INGEST_BODY_LIMIT_BYTES)
// plus the envelope the receiver adds, and the receiver may put several requests for one
// partition into one produce (up to 8 MiB a send), which Kafka stores as one record batch.
// 16 MiB holds both with room; deploy/kafka/*.properties set the broker's message.max.bytes
// and replica.fetch.max.bytes to the same value (docs/deployment.md).
export const KAFKA_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
