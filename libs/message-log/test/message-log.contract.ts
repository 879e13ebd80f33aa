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

    it('tells what a topic retains, where a time falls in it, and reads a range again without a group', async () => {
      const t = `history-${suffix}`;
      await log.ensureTopics([t], 2);
      const p = log.createProducer();
      await p.send([{ topic: t, messages: Array.from({ length: 10 }, (_, i) => msg(i)) }]);
      await new Promise((r) => setTimeout(r, 20));
      const between = Date.now();
      await new Promise((r) => setTimeout(r, 20));
      await p.send([{ topic: t, messages: Array.from({ length: 6 }, (_, i) => msg(100 + i)) }]);
      await p.disconnect();
      const marks = await log.watermarks(t);
      expect(marks.map((m) => m.partition)).toEqual([0, 1]);
      // A produce that timed out is sent again, and may be written twice (docs/topics.md): at
      // least the 16 sent, each of them there, and what the marks span is what a read finds.
      const retained = marks.reduce((n, m) => n + Number(m.high) - Number(m.low), 0);
      expect(retained).toBeGreaterThanOrEqual(16);
      const at = await log.offsetsAt(t, between);
      const later: number[] = [];
      await log.read(
        t,
        at.map((a, i) => ({ partition: a.partition, from: a.offset, to: marks[i].high })),
        async (ms) => void later.push(...ms.map((m) => JSON.parse(m.value!.toString()).i)),
      );
      expect([...new Set(later)].sort((a, b) => a - b)).toEqual([100, 101, 102, 103, 104, 105]);
      expect(await log.offsetsAt(t, Date.now() + 60_000)).toEqual(marks.map((m) => ({ partition: m.partition, offset: m.high })));
      const all: string[] = [];
      const sent = new Set<number>();
      await log.read(
        t,
        marks.map((m) => ({ partition: m.partition, from: m.low, to: m.high })),
        async (ms) => {
          all.push(...ms.map((m) => `${m.partition}/${m.offset}`));
          for (const m of ms) sent.add(JSON.parse(m.value!.toString()).i);
        },
      );
      expect(new Set(all).size).toBe(retained);
      expect(sent.size).toBe(16);
    });

    it('moves an idle group to given positions, and refuses while the group runs', async () => {
      const t = `history-${suffix}`;
      const group = `g4-${suffix}`;
      const marks = await log.watermarks(t);
      const retained = marks.reduce((n, m) => n + Number(m.high) - Number(m.low), 0);
      await log.setGroupOffsets(
        group,
        marks.map((m) => ({ topic: t, partition: m.partition, offset: m.high })),
      );
      expect((await log.lag(group, [t])).reduce((n, l) => n + l.lag, 0)).toBe(0);
      await log.setGroupOffsets(
        group,
        marks.map((m) => ({ topic: t, partition: m.partition, offset: m.low })),
      );
      expect((await log.lag(group, [t])).reduce((n, l) => n + l.lag, 0)).toBe(retained);
      const c = log.createConsumer({ groupId: group, topics: [t] });
      let got = 0;
      await c.run(async (batch) => void (got += batch.length));
      await expect.poll(() => got, { timeout: 20_000 }).toBe(retained);
      const refused = await log.setGroupOffsets(group, [{ topic: t, partition: 0, offset: '0' }]).catch((e) => e);
      await c.stop();
      expect(refused).toBeInstanceOf(Error);
      expect(refused.message).toMatch(/running members/);
      expect(refused.retryable).toBe(false);
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
