import { randomUUID } from 'node:crypto';
import { Kafka, CompressionTypes, logLevel } from 'kafkajs';
import { encodeAsSent, encodeBatch, newEvents, sequentialIds, topicNames } from '@devtrail/contract';
import { logBatchSchema, logsToEvents } from '@devtrail/kinds';
import { createKafkaLog } from '@devtrail/message-log';
import { pipeline } from '../test/support/processes.ts';
import { STACK } from '../test/support/stack.ts';
import type { BenchArgs } from './args.ts';
import { logBatch, logLines } from './payloads.ts';
import { MemorySampler } from './proc-memory.ts';
import { readMetrics } from './consumer-metrics.ts';
import { cpuProfEnv, deleteTopics } from './targets.ts';
import { CpuMeter, stackPids } from './cpu-usage.ts';

// Consumer throughput on its own: the logs topic of a fresh namespace is filled with
// `prefill` messages (encoded exactly as the receiver encodes them: a log request as sent,
// message version 3, or with --envelope 2 the JSON envelope), then ONE consumers
// process (logs sink only) is started and timed until it has written them all and its
// lag is 0.

export interface ConsumerOnlyResult {
  mode: 'consumer-only';
  config: Record<string, unknown>;
  prefill: { messages: number; seconds: number; messagesPerSec: number };
  cpuCores: Record<string, number>;
  consumer: {
    rows: number;
    rowsPerSec: number;
    rowsPerSecFromStart: number;
    secondsFromFirstWrite: number;
    secondsFromStart: number;
    batches: number | null;
    peakRssMb: number;
    deadLettered: number;
  };
}

export async function runConsumerOnly(args: BenchArgs, log: (m: string) => void): Promise<ConsumerOnlyResult> {
  const p = await pipeline({ ...args.env });
  const topics = topicNames(p.env.KAFKA_TOPIC_PREFIX);
  const stopOnSignal = () => {
    log('interrupted: cleaning up');
    void p
      .close()
      .then(() => deleteTopics(p.env.KAFKA_TOPIC_PREFIX, p.env.CONSUMER_GROUP_PREFIX))
      .finally(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    const kafkaLog = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'bench-prefill' });
    await kafkaLog.ensureTopics(topics.all(), Number(p.env.KAFKA_PARTITIONS ?? 3));
    await kafkaLog.close();

    log(`namespace ${p.ns}: writing ${args.prefill.toLocaleString()} log events (message version ${args.envelope}) to ${topics.of('log')}`);
    const prefill = await fillTopic(topics.of('log'), args.prefill, args.batch, args.envelope, log);
    log(`prefill: ${prefill.messagesPerSec.toLocaleString()} messages/s`);

    const t0 = performance.now();
    const c = await p.start('consumers', { CONSUMERS: 'logs', ...cpuProfEnv(args.cpuProf, 'consumers-only') });
    const mem = new MemorySampler(c.child.pid!, 250);
    const cpu = new CpuMeter({ consumers: () => [c.child.pid!], ...stackPids() });
    cpu.begin();
    let first: { at: number; written: number } | undefined;
    let last = { written: 0, deadLettered: 0, lag: null as number | null, at: t0 };
    const deadline = performance.now() + 600_000;
    for (;;) {
      const m = await readMetrics(c.url).catch(() => null);
      const at = performance.now();
      if (m) {
        const s = m[0];
        last = { written: s.written, deadLettered: s.deadLettered, lag: s.lag, at };
        if (!first && s.written > 0) first = { at, written: s.written };
        if (s.written + s.deadLettered >= args.prefill && s.lag === 0) break;
      }
      if (at > deadline) throw new Error(`consumer did not finish in 600 s (written ${last.written}, lag ${last.lag})`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const cpuCores = cpu.end();
    const memory = mem.stop();
    const fromFirst = first ? (last.at - first.at) / 1000 : NaN;
    const fromStart = (last.at - t0) / 1000;
    const batches = await fetch(`${c.url}/metrics`, { headers: { accept: 'application/json' } })
      .then((r) => r.json())
      .then((b: any) => b.consumers[0].batches as number)
      .catch(() => null);
    return {
      mode: 'consumer-only',
      config: { prefill: args.prefill, envelope: args.envelope, env: args.env },
      prefill,
      cpuCores,
      consumer: {
        rows: last.written,
        rowsPerSec: Math.round((last.written - (first?.written ?? 0)) / fromFirst),
        rowsPerSecFromStart: Math.round(last.written / fromStart),
        secondsFromFirstWrite: Math.round(fromFirst * 10) / 10,
        secondsFromStart: Math.round(fromStart * 10) / 10,
        batches,
        peakRssMb: memory.peakMb,
        deadLettered: last.deadLettered,
      },
    };
  } finally {
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
    log('stopping the consumer, dropping the namespace');
    await p.close();
    await deleteTopics(p.env.KAFKA_TOPIC_PREFIX, p.env.CONSUMER_GROUP_PREFIX).catch((err) => log(`could not delete topics: ${(err as Error).message}`));
  }
}

/** Produces `n` log events as the receiver encodes them (one message per request of `perMessage` events), a few sends in flight. */
async function fillTopic(topic: string, n: number, perMessage: number, envelope: 2 | 3, log: (m: string) => void) {
  const kafka = new Kafka({ clientId: 'bench-prefill', brokers: STACK.kafkaBrokers, logLevel: logLevel.WARN });
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const projectId = randomUUID();
  const chunk = 5000;
  const inFlight = 4;
  let made = 0;
  const t0 = performance.now();
  // A pool of realistic events, each sent many times under a fresh event id (a new row each time).
  const now = new Date().toISOString();
  const pool = Array.from({ length: 10 }, () => logsToEvents(logBatchSchema.parse(JSON.parse(logBatch(1000))), now)).flat();
  // Version 3: a pool of request bodies of each size a chunk needs, each sent under fresh event ids.
  const bodies = new Map<number, Buffer[]>();
  const bodyOf = (size: number) => {
    let list = bodies.get(size);
    if (!list) bodies.set(size, (list = Array.from({ length: 20 }, () => Buffer.from(JSON.stringify(logLines(size))))));
    return list[next++ % list.length];
  };
  let next = 0;
  const nextChunk = () => {
    const size = Math.min(chunk, n - made);
    made += size;
    const out = [];
    for (let i = 0; i < size; i += perMessage) {
      const count = Math.min(perMessage, size - i);
      if (envelope === 3) {
        const ids = sequentialIds(count);
        out.push(
          encodeAsSent({ kind: 'log', projectId, receivedAt: now, body: bodyOf(count), ids, retentionDays: 30, certificate: 'unchanged rules=none', key: ids[0] }),
        );
        continue;
      }
      const events = Array.from({ length: count }, () => pool[next++ % pool.length]);
      out.push(encodeBatch('log', projectId, now, newEvents(events)));
    }
    return out;
  };
  let lastLog = t0;
  const worker = async () => {
    while (made < n) {
      const messages = nextChunk();
      await producer.send({ topic, acks: -1, compression: CompressionTypes.None, messages });
      if (performance.now() - lastLog > 5000) {
        lastLog = performance.now();
        log(`  prefill ${made.toLocaleString()} / ${n.toLocaleString()}`);
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  await producer.disconnect();
  const seconds = (performance.now() - t0) / 1000;
  return { messages: n, seconds: Math.round(seconds * 10) / 10, messagesPerSec: Math.round(n / seconds) };
}
