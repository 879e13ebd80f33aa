import { Kafka, logLevel } from 'kafkajs';
import { STACK } from './stack.ts';

// Dead letters on the real Kafka, for the check that closes `make test` (test/final):
// every dead-letter topic's high watermark before and after the run. A suite that sends
// poison on purpose names its topics with POISON_MARK (pipeline({}, { sendsPoison: true })),
// so the check can hold every other dead-letter topic to zero new messages.

export const POISON_MARK = 'poison';
export const DLQ_SUFFIX = '.dlq';

/** True for the topics of suites that dead-letter on purpose: `e2e-poison-<ns>.logs.dlq`, `example-poison-<id>.logs.dlq`. */
export const isPoisonTopic = (topic: string) => topic.includes(`-${POISON_MARK}-`);

/** A topic prefix that marks a suite's topics as poison-on-purpose. */
export const poisonPrefix = (name: string, id: string) => `${name}-${POISON_MARK}-${id}`;

/** Messages ever written to each dead-letter topic (sum of partition high watermarks). */
export async function deadLetterWatermarks(): Promise<Record<string, number>> {
  // A broker that just started may not have elected every partition's leader yet: retry what Kafka calls retriable.
  for (let attempt = 1; ; attempt++) {
    try {
      return await readWatermarks();
    } catch (err) {
      if (!(err as { retriable?: boolean }).retriable || attempt >= 15) throw err;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

async function readWatermarks(): Promise<Record<string, number>> {
  const admin = new Kafka({ brokers: STACK.kafkaBrokers, clientId: 'dlq-check', logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => t.endsWith(DLQ_SUFFIX));
    const out: Record<string, number> = {};
    for (let i = 0; i < topics.length; i += 20) {
      const chunk = topics.slice(i, i + 20);
      const offsets = await Promise.all(chunk.map((t) => admin.fetchTopicOffsets(t)));
      chunk.forEach((t, j) => {
        out[t] = offsets[j].reduce((n, p) => n + Number(p.high), 0);
      });
    }
    return out;
  } finally {
    await admin.disconnect();
  }
}
