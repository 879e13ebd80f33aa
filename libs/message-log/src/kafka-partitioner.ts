import { randomBytes } from 'node:crypto';
import type { ICustomPartitioner } from 'kafkajs';

// kafkajs's default partitioner, the same choices with less work: its murmur2 emulates
// 32-bit integer arithmetic with a Long object per step (about 7% of a receiver's CPU
// in bench/ profiles, plus the garbage), and it filters the partition list for every
// message. Here murmur2 is the Java client's, in Math.imul arithmetic, so a key goes to
// exactly the partition kafkajs (and Java producers) would pick; test/kafka-partitioner
// holds that for many keys.

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/** org.apache.kafka.common.utils.Utils.murmur2 of the key's UTF-8 bytes, as a signed 32-bit int. */
export function murmur2(key: string | Buffer): number {
  const data = Buffer.isBuffer(key) ? key : Buffer.from(String(key));
  const length = data.length;
  let h = SEED ^ length;
  const length4 = length >>> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i * 4;
    let k = (data[i4] & 0xff) + ((data[i4 + 1] & 0xff) << 8) + ((data[i4 + 2] & 0xff) << 16) + ((data[i4 + 3] & 0xff) << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M);
    h ^= k;
  }
  const tail = length & ~3;
  switch (length % 4) {
    // biome-ignore lint/suspicious/noFallthroughSwitchClause: murmur2 mixes the tail bytes from the highest down.
    case 3:
      h ^= (data[tail + 2] & 0xff) << 16;
    // biome-ignore lint/suspicious/noFallthroughSwitchClause: as above.
    case 2:
      h ^= (data[tail + 1] & 0xff) << 8;
    case 1:
      h ^= data[tail] & 0xff;
      h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

const toPositive = (x: number) => x & 0x7fffffff;

/** Drop-in for kafkajs's DefaultPartitioner: explicit partition, else murmur2(key), else round robin. */
export const javaCompatiblePartitioner: ICustomPartitioner = () => {
  const counters = new Map<string, number>();
  return ({ topic, partitionMetadata, message }) => {
    if (message.partition !== null && message.partition !== undefined) return message.partition;
    if (message.key !== null && message.key !== undefined) return toPositive(murmur2(message.key)) % partitionMetadata.length;
    const c = (counters.get(topic) ?? randomBytes(4).readUInt32BE(0)) + 1;
    counters.set(topic, c);
    const available = partitionMetadata.filter((p) => p.leader >= 0);
    if (available.length > 0) return available[toPositive(c) % available.length].partitionId;
    return toPositive(c) % partitionMetadata.length;
  };
};
