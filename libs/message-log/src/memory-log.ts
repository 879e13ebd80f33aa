import { murmur2 } from './kafka-partitioner.ts';
import {
  MessageLogError,
  type ConsumedMessage,
  type Consumer,
  type ConsumerOptions,
  type MessageLog,
  type OutgoingMessage,
  type PartitionLag,
  type Producer,
  type TopicPosition,
} from './message-log.ts';

// The in-process message log of the embedded mode. Same contract as Kafka for what
// the stages rely on: partitions by key, per-partition order, consumer groups that
// resume from their commit, lag. Bounded: when `capacity` messages or `capacityBytes`
// of values are retained and none can be dropped, a send fails (retryable) instead of
// growing. Not durable across a crash (documented).

interface Stored {
  offset: number;
  key: string | null;
  value: Buffer;
  headers: Record<string, string>;
  timestamp: number;
}

class Partition {
  base = 0; // offset of messages[0]
  messages: Stored[] = [];
  get end() {
    return this.base + this.messages.length;
  }
}

export interface MemoryLogOptions {
  capacity?: number;
  capacityBytes?: number;
  maxBatch?: number;
}

export function createMemoryLog(opts: MemoryLogOptions = {}): MessageLog {
  const capacity = opts.capacity ?? 500_000;
  const capacityBytes = opts.capacityBytes ?? 256 * 1024 * 1024;
  const maxBatch = opts.maxBatch ?? 5000;
  const topics = new Map<string, Partition[]>();
  const committed = new Map<string, Map<string, number>>(); // group -> "topic/partition" -> offset
  const groupTopics = new Map<string, Set<string>>();
  const runningGroups = new Map<string, number>(); // group -> running members
  const waiters = new Set<() => void>();
  let retained = 0;
  let retainedBytes = 0;
  let closed = false;

  const wake = () => {
    for (const w of [...waiters]) w();
  };
  const partitionsOf = (topic: string) => {
    const p = topics.get(topic);
    if (!p) throw new MessageLogError(`unknown topic ${topic}`, false);
    return p;
  };
  // Keys hash as in Kafka (murmur2, kafka-partitioner.ts); an md5 per message was ~8% of the embedded process.
  const pick = (key: string | null, n: number, rr: { i: number }) => (key === null ? rr.i++ % n : (murmur2(key) & 0x7fffffff) % n);
  const committedOf = (group: string, topic: string, partition: number) => committed.get(group)?.get(`${topic}/${partition}`);

  /** Drops what every group that reads a topic has committed past. */
  const trim = (topic: string) => {
    const groups = [...groupTopics].filter(([, ts]) => ts.has(topic)).map(([g]) => g);
    if (groups.length === 0) return;
    partitionsOf(topic).forEach((p, i) => {
      const min = Math.min(...groups.map((g) => committedOf(g, topic, i) ?? p.base));
      const drop = Math.min(p.messages.length, Math.max(0, min - p.base));
      if (drop > 0) {
        for (const m of p.messages.splice(0, drop)) retainedBytes -= m.value.length;
        p.base += drop;
        retained -= drop;
      }
    });
  };

  return {
    kind: 'memory',
    async ensureTopics(names, partitions) {
      for (const t of names)
        if (!topics.has(t))
          topics.set(
            t,
            Array.from({ length: partitions }, () => new Partition()),
          );
    },

    createProducer(): Producer {
      const rr = { i: 0 };
      return {
        async connect() {},
        async send(batches) {
          if (closed) throw new MessageLogError('message log closed', true);
          const count = batches.reduce((n, b) => n + b.messages.length, 0);
          const bytes = batches.reduce((n, b) => b.messages.reduce((m, x) => m + x.value.length, n), 0);
          const full = () => retained + count > capacity || retainedBytes + bytes > capacityBytes;
          // Like Kafka, keep what was consumed until room is needed; then drop only
          // what every known group has committed past.
          if (full()) for (const t of topics.keys()) trim(t);
          if (full()) throw new MessageLogError('message log full', true);
          const now = Date.now();
          for (const b of batches) {
            const parts = partitionsOf(b.topic);
            for (const m of b.messages as OutgoingMessage[]) {
              const p = parts[pick(m.key, parts.length, rr)];
              p.messages.push({ offset: p.end, key: m.key, value: m.value, headers: m.headers, timestamp: now });
            }
          }
          retained += count;
          retainedBytes += bytes;
          wake();
        },
        async disconnect() {},
      };
    },

    createConsumer(copts: ConsumerOptions): Consumer {
      const { groupId } = copts;
      if (!committed.has(groupId)) committed.set(groupId, new Map());
      groupTopics.set(groupId, new Set([...(groupTopics.get(groupId) ?? []), ...copts.topics]));
      let running = false;
      let loop: Promise<void> | undefined;
      const positions = new Map<string, number>();
      const start = (topic: string, i: number, p: Partition) => committedOf(groupId, topic, i) ?? (copts.fromBeginning === false ? p.end : p.base);

      return {
        async run(handler) {
          running = true;
          runningGroups.set(groupId, (runningGroups.get(groupId) ?? 0) + 1);
          for (const t of copts.topics) partitionsOf(t).forEach((p, i) => positions.set(`${t}/${i}`, start(t, i, p)));
          loop = (async () => {
            while (running && !closed) {
              const batch: ConsumedMessage[] = [];
              const fetchedAt = Date.now();
              for (const t of copts.topics) {
                partitionsOf(t).forEach((p, i) => {
                  let pos = Math.max(positions.get(`${t}/${i}`)!, p.base);
                  while (pos < p.end && batch.length < maxBatch) {
                    const m = p.messages[pos - p.base];
                    batch.push({ topic: t, partition: i, offset: String(m.offset), key: m.key, value: m.value, headers: m.headers, timestamp: m.timestamp, fetchedAt });
                    pos++;
                  }
                  positions.set(`${t}/${i}`, pos);
                });
              }
              if (batch.length === 0) {
                await new Promise<void>((resolve) => {
                  const done = () => {
                    waiters.delete(done);
                    clearTimeout(timer);
                    resolve();
                  };
                  const timer = setTimeout(done, 100);
                  waiters.add(done);
                });
                continue;
              }
              try {
                await handler(batch, { heartbeat: async () => {}, isRunning: () => running && !closed });
              } catch {
                // As a Kafka consumer restarts after a failed batch: re-read from the last commit.
                for (const t of copts.topics) partitionsOf(t).forEach((p, i) => positions.set(`${t}/${i}`, start(t, i, p)));
                await new Promise((r) => setTimeout(r, 500));
              }
            }
          })();
        },
        async commit(list: TopicPosition[]) {
          const g = committed.get(groupId)!;
          for (const p of list) g.set(`${p.topic}/${p.partition}`, Number(p.offset));
        },
        onRebalance() {
          // One process owns every partition: ownership never changes.
        },
        async stop() {
          if (running) runningGroups.set(groupId, runningGroups.get(groupId)! - 1);
          running = false;
          wake();
          await loop;
        },
      };
    },

    async lag(groupId, names) {
      const out: PartitionLag[] = [];
      for (const t of names) {
        partitionsOf(t).forEach((p, i) => {
          const c = committedOf(groupId, t, i) ?? p.base;
          out.push({ topic: t, partition: i, committed: String(c), end: String(p.end), lag: p.end - c });
        });
      }
      return out;
    },

    async watermarks(topic) {
      return partitionsOf(topic).map((p, partition) => ({ partition, low: String(p.base), high: String(p.end) }));
    },

    async offsetsAt(topic, timeMs) {
      return partitionsOf(topic).map((p, partition) => ({ partition, offset: String(p.messages.find((m) => m.timestamp >= timeMs)?.offset ?? p.end) }));
    },

    async read(topic, ranges, handler) {
      const parts = partitionsOf(topic);
      for (const r of ranges) {
        const p = parts[r.partition];
        for (let pos = Math.max(Number(r.from), p.base); pos < Math.min(Number(r.to), p.end); pos += maxBatch) {
          const chunk = p.messages.slice(pos - p.base, Math.min(Number(r.to), p.end) - p.base).slice(0, maxBatch);
          await handler(
            chunk.map((m) => ({ topic, partition: r.partition, offset: String(m.offset), key: m.key, value: m.value, headers: m.headers, timestamp: m.timestamp })),
          );
        }
      }
    },

    async setGroupOffsets(groupId, positions) {
      if ((runningGroups.get(groupId) ?? 0) > 0)
        throw new MessageLogError(`consumer group ${groupId} has running members: stop its consumers first, then move it`, false);
      if (!committed.has(groupId)) committed.set(groupId, new Map());
      for (const p of positions) {
        committed.get(groupId)!.set(`${p.topic}/${p.partition}`, Number(p.offset));
        groupTopics.set(groupId, new Set([...(groupTopics.get(groupId) ?? []), p.topic]));
      }
    },

    async ping() {
      if (closed) throw new MessageLogError('message log closed', true);
    },

    async close() {
      closed = true;
      wake();
    },
  };
}
