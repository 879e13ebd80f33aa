import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createKafkaLog, KAFKA_MAX_MESSAGE_BYTES, type ConsumedMessage } from '../src/index.ts';
import { murmur2 } from '../src/kafka-partitioner.ts';
import { messageLogContract, redeliveryAfterHandlerFailure } from './message-log.contract.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../../../test/support/stack.ts';

if (await stackUp()) {
  messageLogContract('Apache Kafka (real broker)', async () => createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'contract-test' }));
  redeliveryAfterHandlerFailure('Apache Kafka (real broker)', async () => createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'contract-test' }));

  describe('Kafka message size (real broker)', () => {
    it('carries messages larger than the largest request (5 MiB plus envelope) on the topics it creates', { timeout: 60_000 }, async () => {
      const log = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'limits-test' });
      const topic = `limits-${randomBytes(4).toString('hex')}`;
      await log.ensureTopics([topic], 3);
      // A key for each partition, as the producer's partitioner (murmur2) places it.
      const keyFor = (partition: number) => {
        for (let i = 0; ; i++) if ((murmur2(`k${i}`) & 0x7fffffff) % 3 === partition) return `k${i}`;
      };
      const msg = (partition: number, value: Buffer) => ({ key: keyFor(partition), value, headers: {} });
      const big = (partition: number, fill: string) => msg(partition, Buffer.alloc(6 * 1024 * 1024, fill));
      const p = log.createProducer();
      // Big messages on partitions 1 and 2 behind a small one on 0 in the same fetch, then one on 0.
      await p.send([{ topic, messages: [msg(0, Buffer.from('small-0')), big(1, 'a'), big(2, 'b')] }]);
      await p.send([{ topic, messages: [big(0, 'c')] }]);
      const got: ConsumedMessage[] = [];
      const c = log.createConsumer({ groupId: `limits-${topic}`, topics: [topic] });
      await c.run(async (batch) => void got.push(...batch));
      await expect.poll(() => got.length, { timeout: 30_000 }).toBe(4);
      await c.stop();
      await p.disconnect();
      await log.close();
      expect(got.map((m) => m.value!.length).sort((a, b) => a - b)).toEqual([7, 6 * 1024 * 1024, 6 * 1024 * 1024, 6 * 1024 * 1024]);
      expect(KAFKA_MAX_MESSAGE_BYTES).toBeGreaterThan(6 * 1024 * 1024);
    });
  });
} else {
  describe.skip(`message log contract: Kafka (skipped: ${NO_STACK_REASON})`, () => {});
}
