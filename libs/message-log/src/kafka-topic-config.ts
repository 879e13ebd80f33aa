// The configs devtrail creates its Kafka topics with (docs/deployment.md).

// The largest record batch a topic accepts (max.message.bytes). One request becomes one
// message: up to 5 MiB of body after decompression (INGEST_BODY_LIMIT_BYTES) plus the
// envelope the receiver adds, and the receiver may put several requests for one partition
// into one produce (up to 8 MiB a send), which Kafka stores as one record batch. 16 MiB
// holds both with room; deploy/kafka/server.properties sets the broker's message.max.bytes
// and replica.fetch.max.bytes to the same value.
export const KAFKA_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * Replicas that must have a write before acks=all acknowledges it: all but one, so one
 * broker can be lost without stopping writes or losing an acknowledged message (2 of 3).
 */
export function minInsyncReplicas(replicationFactor: number): number {
  return Math.max(1, replicationFactor - 1);
}

export function kafkaTopicConfig(replicationFactor: number): Array<{ name: string; value: string }> {
  return [
    { name: 'max.message.bytes', value: String(KAFKA_MAX_MESSAGE_BYTES) },
    { name: 'min.insync.replicas', value: String(minInsyncReplicas(replicationFactor)) },
  ];
}
