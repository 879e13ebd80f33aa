import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsumedMessage, MessageLog } from '../src/index.ts';

const msg = (i: number, key: string | null = `k${i % 7}`) => ({ key, value: Buffer.from(JSON.stringify({ i })), headers: { 'dt-kind': 'log', n: String(i) } });

async function collect(log: MessageLog, groupId: string, topic: string, want: number, commitEvery = true) {
  const got: ConsumedMessage[] = [];
  const c = log.createConsumer({ groupId, topics: [topic] });
  await c.run(async (batch) => {
    got.push(...batch);
    if (commitEvery) {
      const last = new Map<number, string>();
      for (const m of batch) last.set(m.partition, m.offset);
      await c.commit([...last].map(([partition, offset]) => ({ topic, partition, offset: String(BigInt(offset) + 1n) })));
    }
  });
  const deadline = Date.now() + 20_000;
  while (got.length < want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  await c.stop();
  return got;
}

/** What the stages rely on from a message log; Kafka and the in-process log both pass it. */
export function messageLogContract(name: string, open: () => Promise<MessageLog>) {
  describe(`message log contract: ${name}`, () => {
    let log: MessageLog;
    const suffix = randomBytes(4).toString('hex');
    const topic = `contract-${suffix}`;
    beforeAll(async () => {
      log = await open();
      await log.ensureTopics([topic], 3);
      await log.ensureTopics([topic], 3); // idempotent
    });
    afterAll(async () => log.close());

    it('answers ping', async () => {
      await expect(log.ping()).resolves.toBeUndefined();
    });

    it('delivers every acknowledged message with headers, in order per partition', async () => {
      const p = log.createProducer();
      await p.connect();
      await p.send([{ topic, messages: Array.from({ length: 300 }, (_, i) => msg(i)) }]);
      const got = await collect(log, `g1-${suffix}`, topic, 300);
      await p.disconnect();
      expect(got).toHaveLength(300);
      expect(new Set(got.map((m) => JSON.parse(m.value!.toString()).i)).size).toBe(300);
      expect(got[0].headers['dt-kind']).toBe('log');
      const byPartition = new Map<number, number[]>();
      for (const m of got) byPartition.set(m.partition, [...(byPartition.get(m.partition) ?? []), Number(m.offset)]);
      for (const offsets of byPartition.values()) expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
      // One key, one partition.
      const parts = new Set(got.filter((m) => m.key === 'k3').map((m) => m.partition));
      expect(parts.size).toBe(1);
    });

    it('resumes a group from its commit and redelivers what was not committed', async () => {
      const group = `g2-${suffix}`;
      const first = await collect(log, group, topic, 300, true);
      expect(first).toHaveLength(300);
      const lag = await log.lag(group, [topic]);
      expect(lag.reduce((s, l) => s + l.lag, 0)).toBe(0);

      const p = log.createProducer();
      await p.send([{ topic, messages: Array.from({ length: 20 }, (_, i) => msg(1000 + i, null)) }]);
      await p.disconnect();
      await expect.poll(async () => (await log.lag(group, [topic])).reduce((s, l) => s + l.lag, 0), { timeout: 10_000 }).toBe(20);
      const uncommitted = await collect(log, group, topic, 20, false);
      expect(uncommitted).toHaveLength(20);
      const again = await collect(log, group, topic, 20, true);
      expect(again.map((m) => m.offset).sort()).toEqual(uncommitted.map((m) => m.offset).sort());
    });

    it('keeps groups independent', async () => {
      const other = await collect(log, `g3-${suffix}`, topic, 320);
      expect(other).toHaveLength(320);
    });
  });
}

/** A handler that throws gets the uncommitted messages again (Kafka restarts the member; the in-process log rewinds). */
export function redeliveryAfterHandlerFailure(name: string, open: () => Promise<MessageLog>) {
  describe(`message log contract: ${name}, failed handler`, () => {
    it('redelivers what was not committed after the handler threw', { timeout: 60_000 }, async () => {
      const log = await open();
      const topic = `rethrow-${randomBytes(4).toString('hex')}`;
      await log.ensureTopics([topic], 1);
      const p = log.createProducer();
      await p.send([{ topic, messages: [msg(1, 'k'), msg(2, 'k')] }]);
      await p.disconnect();
      const seen: string[] = [];
      let threw = false;
      const c = log.createConsumer({ groupId: `rethrow-${topic}`, topics: [topic] });
      await c.run(async (batch) => {
        seen.push(...batch.map((m) => m.offset));
        if (!threw) {
          threw = true;
          throw new Error('handler failed');
        }
        const last = batch[batch.length - 1];
        await c.commit([{ topic, partition: last.partition, offset: String(BigInt(last.offset) + 1n) }]);
      });
      await expect.poll(() => seen.filter((o) => o === '0').length, { timeout: 30_000 }).toBe(2);
      await c.stop();
      await log.close();
    });
  });
}
