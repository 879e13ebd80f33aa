import { createKafkaLog, type ConsumedMessage } from '@devtrail/message-log';
import { murmur2 } from '../libs/message-log/src/kafka-partitioner.ts';
import type { FlushTiming } from '@devtrail/consumer-kit';
import { summarize, type Summary } from './stats.ts';
import type { Seen } from './visibility.ts';

// Where POST-to-visible goes, per log probe (distributed mode): the probe is sent with an
// Idempotency-Key, so its first event id, its Kafka key and so its partition are known
// beforehand; after the run its message is found in Kafka (its append time and offset), the
// logs sink's flush that wrote it in the consumers' JSON /metrics (recentFlushes: when the Kafka
// client handed it over, when the write started and ended), and the bench's own poll says when
// a read first showed it. All clocks are the one machine's.

/** A log probe as sent. */
export interface SentProbe {
  marker: string;
  /** Its first event id: the Kafka key of its message. */
  firstId: string;
  /** Date.now() when the request was written. */
  sentWall: number;
}

export const STAGES = [
  ['receiver, to the append', 'POST written to the message appended (its Kafka time)'],
  ['Kafka ack, to the 200', 'appended to the answer received (acks=all, the answer)'],
  ['Kafka, to the consumer', 'appended to handed to the logs sink by its Kafka client'],
  ['batch linger', 'handed over to its write starting (the batch filling, a write before it)'],
  ['insert', 'the write of its batch'],
  ['store, to readable', 'the write done to the start of a poll (0 when one was under way)'],
  ['the read', 'that poll, from when the row was written or the poll started, whichever later'],
  ['POST-to-visible', 'the 200 to that poll answered (the figure above)'],
] as const;

export interface Breakdown {
  /** Probes broken down, and those whose message or flush was not found. */
  probes: number;
  unmatched: number;
  stages: Record<string, Summary>;
  /** The slowest probes, each stage in ms. */
  slowest: Array<Record<string, number>>;
}

const MAX_PROBES = 80;
const SEARCH = 40;

export async function visibilityBreakdown(o: {
  brokers: string[];
  topic: string;
  consumerUrls: string[];
  sink: string;
  sent: Map<string, SentProbe>;
  seen: Seen[];
}): Promise<Breakdown> {
  const seen = o.seen.filter((s) => s.kind === 'log' && o.sent.has(s.marker)).sort((a, b) => b.seenWall - b.ackWall - (a.seenWall - a.ackWall));
  // The slowest first (the tail is the point), then the others spread over the run.
  const chosen = seen.length <= MAX_PROBES ? seen : [...seen.slice(0, 20), ...seen.slice(20).filter((_, i, all) => i % Math.ceil(all.length / (MAX_PROBES - 20)) === 0)];
  const flushes: FlushTiming[] = [];
  for (const url of o.consumerUrls) {
    const r = await fetch(`${url}/metrics`, { headers: { accept: 'application/json' } });
    const b = (await r.json()) as { consumers: Array<{ name: string; recentFlushes?: FlushTiming[] }> };
    for (const c of b.consumers) if (c.name === o.sink) flushes.push(...(c.recentFlushes ?? []));
  }
  const log = createKafkaLog({ brokers: o.brokers, clientId: 'bench-breakdown' });
  const rows: Array<Record<string, number>> = [];
  let unmatched = 0;
  try {
    const partitions = (await log.watermarks(o.topic)).length;
    for (const s of chosen) {
      const p = o.sent.get(s.marker)!;
      const partition = (murmur2(p.firstId) & 0x7fffffff) % partitions;
      const message = await find(log, o.topic, partition, p);
      const offset = message ? BigInt(message.offset) : undefined;
      const flush =
        offset === undefined ? undefined : flushes.find((f) => f.runs.some((r) => r.partition === partition && BigInt(r.from) <= offset && offset <= BigInt(r.to)));
      const run = flush?.runs.find((r) => r.partition === partition && BigInt(r.from) <= offset! && offset! <= BigInt(r.to));
      if (!message || !flush || !run || run.fetchedAt === null) {
        unmatched++;
        continue;
      }
      const values = [
        message.timestamp - p.sentWall,
        s.ackWall - message.timestamp,
        run.fetchedAt - message.timestamp,
        flush.writeStartedAt - run.fetchedAt,
        flush.writeEndedAt - flush.writeStartedAt,
        Math.max(0, s.pollStartWall - flush.writeEndedAt),
        s.seenWall - Math.max(s.pollStartWall, flush.writeEndedAt),
        s.seenWall - s.ackWall,
      ];
      rows.push(Object.fromEntries(STAGES.map(([name], i) => [name, values[i]])));
    }
  } finally {
    await log.close();
  }
  const stages = Object.fromEntries(STAGES.map(([name]) => [name, summarize(rows.map((r) => r[name]))]));
  const total = STAGES[STAGES.length - 1][0];
  return { probes: rows.length, unmatched, stages, slowest: [...rows].sort((a, b) => b[total] - a[total]).slice(0, 5) };
}

/** The probe's message: on its partition, from shortly before it was sent, by its key. */
async function find(log: ReturnType<typeof createKafkaLog>, topic: string, partition: number, p: SentProbe): Promise<ConsumedMessage | undefined> {
  const [start] = (await log.offsetsAt(topic, p.sentWall - 1000)).filter((x) => x.partition === partition);
  const high = BigInt((await log.watermarks(topic)).find((w) => w.partition === partition)!.high);
  for (let from = BigInt(start.offset); from < high; from += BigInt(SEARCH)) {
    const to = from + BigInt(SEARCH) < high ? from + BigInt(SEARCH) : high;
    let found: ConsumedMessage | undefined;
    await log.read(topic, [{ partition, from: String(from), to: String(to) }], async (ms) => {
      found ??= ms.find((m) => m.key === p.firstId);
    });
    if (found) return found;
    if (from - BigInt(start.offset) > BigInt(5 * SEARCH)) return undefined;
  }
  return undefined;
}
