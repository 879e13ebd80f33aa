import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { javaCompatiblePartitioner, murmur2 } from '../src/kafka-partitioner.ts';

// The partitioner must pick exactly the partition kafkajs's default one picks for every
// key (spans stay on their trace's partition across receivers and versions).

const meta = (n: number): PartitionMetadata[] =>
  Array.from({ length: n }, (_, i) => ({ partitionId: i, leader: 1, replicas: [1], isr: [1], partitionErrorCode: 0, offlineReplicas: [] }));

function keys(): Array<string | Buffer> {
  const out: Array<string | Buffer> = ['', 'a', 'ab', 'abc', 'abcd', 'abcde', 'ünïcødé ✓', '😀 emoji', '4bf92f3577b34da6a3ce929d0e0e4736'];
  for (let i = 0; i < 3000; i++) {
    const b = randomBytes(i % 97);
    out.push(i % 3 === 0 ? b : i % 3 === 1 ? b.toString('hex') : b.toString('latin1'));
  }
  for (let i = 0; i < 300; i++) out.push(crypto.randomUUID());
  return out;
}

describe('Kafka partitioner', () => {
  it('hashes keys as the Java client does (known values)', () => {
    // Values from org.apache.kafka.common.utils.Utils.murmur2 (Kafka's UtilsTest).
    expect(murmur2(Buffer.from('21'))).toBe(-973932308);
    expect(murmur2(Buffer.from('foobar'))).toBe(-790332482);
    expect(murmur2(Buffer.from('a-little-bit-long-string'))).toBe(-985981536);
    expect(murmur2(Buffer.from('a-little-bit-longer-string'))).toBe(-1486304829);
    expect(murmur2(Buffer.from('lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8'))).toBe(-58897971);
    expect(murmur2(Buffer.from('abc'))).toBe(479470107);
  });

  it('picks the partition kafkajs DefaultPartitioner picks for every key', () => {
    const theirs = Partitioners.DefaultPartitioner();
    const ours = javaCompatiblePartitioner();
    for (const n of [1, 3, 7, 12]) {
      const partitionMetadata = meta(n);
      for (const key of keys()) {
        const message = { key, value: 'v' };
        expect(ours({ topic: 't', partitionMetadata, message }), String(key)).toBe(theirs({ topic: 't', partitionMetadata, message }));
      }
    }
  });

  it('keeps an explicit partition and spreads keyless messages over available partitions', () => {
    const p = javaCompatiblePartitioner();
    const partitionMetadata = meta(3);
    expect(p({ topic: 't', partitionMetadata, message: { key: 'k', value: 'v', partition: 2 } })).toBe(2);
    const seen = new Set<number>();
    for (let i = 0; i < 30; i++) seen.add(p({ topic: 't', partitionMetadata, message: { key: null, value: 'v' } }));
    expect([...seen].sort()).toEqual([0, 1, 2]);
    const oneDown = meta(3).map((m) => (m.partitionId === 1 ? { ...m, leader: -1 } : m));
    for (let i = 0; i < 30; i++) expect(p({ topic: 'u', partitionMetadata: oneDown, message: { key: null, value: 'v' } })).not.toBe(1);
  });
});
