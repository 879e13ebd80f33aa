import { randomUUID } from 'node:crypto';
import type { Admin, ConsumerConfig, Kafka } from 'kafkajs';
import { headerStrings } from './kafka-headers.ts';
import { whileTopicsAppear } from './kafka-new-topics.ts';
import { MessageLogError, type ConsumedMessage, type MessageLog, type TopicPosition } from './message-log.ts';

// What a Kafka topic still retains, and reading it again (docs/topics.md, "Replay").
// kafkajs has no group-less consumer, so a read joins a group of its own, named for this
// read only: it seeks each partition to the range's start, commits nothing, and is deleted
// afterwards. A live group (a sink) is never touched.

type AdminCall = <T>(fn: (a: Admin) => Promise<T>, what: string) => Promise<T>;
type History = Pick<MessageLog, 'watermarks' | 'offsetsAt' | 'read' | 'setGroupOffsets'>;

/** A read that gets no message for this long while partitions are unfinished has stalled (Kafka gone). */
const READ_STALL_MS = 60_000;
/** Group states in which Kafka lets a group's offsets be set. */
const IDLE_GROUP_STATES = new Set(['Empty', 'Dead']);

export function kafkaHistory(o: { kafka: Kafka; adminCall: AdminCall; consumerConfig: (groupId: string) => ConsumerConfig; clientId: string }): History {
  const { adminCall } = o;
  return {
    async watermarks(topic) {
      const offsets = await adminCall((a) => a.fetchTopicOffsets(topic), 'watermarks');
      return offsets.map((p) => ({ partition: p.partition, low: p.low, high: p.high })).sort((a, b) => a.partition - b.partition);
    },

    async offsetsAt(topic, timeMs) {
      const offsets = await adminCall((a) => a.fetchTopicOffsetsByTimestamp(topic, timeMs), 'offsets by time');
      return offsets.map((p) => ({ partition: p.partition, offset: p.offset })).sort((a, b) => a.partition - b.partition);
    },

    async read(topic, ranges, handler) {
      const pending = new Map(ranges.filter((r) => BigInt(r.from) < BigInt(r.to)).map((r) => [r.partition, r]));
      if (pending.size === 0) return;
      const groupId = `${o.clientId}-read-${randomUUID()}`;
      const c = o.kafka.consumer({ ...o.consumerConfig(groupId), retry: { retries: 10, initialRetryTime: 200, maxRetryTime: 2000 } });
      let settle!: (err?: Error) => void;
      const finished = new Promise<void>((resolve, reject) => {
        settle = (err) => (err ? reject(err) : resolve());
      });
      let lastProgress = Date.now();
      const stall = setInterval(() => {
        if (Date.now() - lastProgress > READ_STALL_MS)
          settle(new MessageLogError(`reading ${topic} stalled: no message for ${READ_STALL_MS / 1000} s with ${pending.size} partition(s) unfinished`, true));
      }, 1000);
      c.on(c.events.CRASH, ({ payload }) => {
        if (!payload.restart) settle(new MessageLogError(`reading ${topic}: ${payload.error.message}`, true));
      });
      try {
        await c.connect();
        await whileTopicsAppear(() => c.subscribe({ topics: [topic], fromBeginning: true }));
        await c.run({
          autoCommit: false,
          eachBatchAutoResolve: false,
          partitionsConsumedConcurrently: 1,
          eachBatch: async ({ batch, resolveOffset, heartbeat, isStale }) => {
            const range = pending.get(batch.partition);
            if (!range || isStale()) return;
            const [from, to] = [BigInt(range.from), BigInt(range.to)];
            // Messages before the seek took effect, or past the range, are not ours.
            const messages: ConsumedMessage[] = batch.messages
              .filter((m) => BigInt(m.offset) >= from && BigInt(m.offset) < to)
              .map((m) => ({
                topic,
                partition: batch.partition,
                offset: m.offset,
                key: m.key ? m.key.toString('utf8') : null,
                value: m.value,
                headers: headerStrings(m.headers),
                timestamp: Number(m.timestamp),
              }));
            if (messages.length > 0) {
              lastProgress = Date.now();
              await handler(messages);
            }
            resolveOffset(batch.lastOffset());
            await heartbeat();
            if (BigInt(batch.lastOffset()) + 1n >= to) {
              pending.delete(batch.partition);
              c.pause([{ topic, partitions: [batch.partition] }]);
              if (pending.size === 0) settle();
            }
          },
        });
        for (const r of pending.values()) c.seek({ topic, partition: r.partition, offset: r.from });
        await finished;
      } finally {
        clearInterval(stall);
        await c.disconnect().catch(() => {});
        await adminCall((a) => a.deleteGroups([groupId]), 'delete read group').catch(() => {});
      }
    },

    async setGroupOffsets(groupId, positions: TopicPosition[]) {
      // kafkajs moves a group by joining it for a moment (a rebalance: seconds), longer than adminCall allows.
      const a = o.kafka.admin();
      try {
        await a.connect();
        const { groups } = await a.describeGroups([groupId]);
        const state = groups[0]?.state ?? 'Dead';
        if (!IDLE_GROUP_STATES.has(state))
          throw new MessageLogError(`consumer group ${groupId} has running members (state ${state}): stop its consumers first, then move it`, false);
        const byTopic = new Map<string, TopicPosition[]>();
        for (const p of positions) byTopic.set(p.topic, [...(byTopic.get(p.topic) ?? []), p]);
        for (const [topic, ps] of byTopic) await a.setOffsets({ groupId, topic, partitions: ps.map((p) => ({ partition: p.partition, offset: p.offset })) });
      } catch (err) {
        throw err instanceof MessageLogError ? err : new MessageLogError(`set group offsets: ${(err as Error).message}`, true);
      } finally {
        await a.disconnect().catch(() => {});
      }
    },
  };
}
