import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createKafkaLog, createMemoryLog, type MessageLog } from '@devtrail/message-log';
import { encodeBatch, newEvents, topicNames } from '@devtrail/contract';
import { encodeEnvelope, newEnvelope } from '../../../test/support/envelopes.ts';
import { logsToEvents } from '@devtrail/kinds';
import { eventsPerMinute } from '../src/examples/events-per-minute.ts';
import { poisonPrefix } from '../../../test/support/dead-letters.ts';
import { STACK, stackUp } from '../../../test/support/stack.ts';

// The example outside consumer, on the in-process log and on real Kafka.
const up = await stackUp();
const logs: Array<[string, () => MessageLog]> = [['in-process log', () => createMemoryLog()]];
if (up) logs.push(['Kafka', () => createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'example-test' })]);

describe.each(logs)('example consumer: events per project and minute (%s)', (_name, open) => {
  it('counts each event once per project and minute, even when a batch is redelivered', { timeout: 60_000 }, async () => {
    const log = open();
    // A garbage message is dead-lettered on purpose: the topics say so (test/final/dead-letters.test.ts).
    const prefix = poisonPrefix('example', randomUUID().slice(0, 8));
    const topics = topicNames(`${prefix}.`);
    const topic = topics.of('log');
    await log.ensureTopics([topic, `${topic}.dlq`], 2);
    const [p1, p2] = [randomUUID(), randomUUID()];
    const now = new Date().toISOString();
    const events = (minute: string, n: number) =>
      logsToEvents(
        {
          service: 's',
          environment: 'e',
          logs: Array.from({ length: n }, () => ({ level: 'info', message: 'm', timestamp: `2026-11-21T10:${minute}:30.000Z` })),
        } as never,
        now,
      );
    // One message per request (schema version 2), and p2's events one per message as older receivers wrote them (version 1).
    const request = (project: string, minute: string, n: number) => encodeBatch('log', project, now, newEvents(events(minute, n)));
    const batch = [request(p1, '01', 3), request(p1, '02', 2), ...events('01', 4).map((d) => encodeEnvelope(newEnvelope('log', p2, now, d)))];
    const prod = log.createProducer();
    await prod.send([{ topic, messages: batch }]);
    await prod.send([{ topic, messages: batch.slice(0, 1) }]); // a redelivery of the same events
    await prod.send([{ topic, messages: [{ key: null, value: Buffer.from('garbage'), headers: {} }] }]);
    await prod.disconnect();

    const c = eventsPerMinute(log, topics, `${prefix}.events-per-minute`); // its group's dead letters are on purpose too
    await c.start();
    await expect
      .poll(() => Object.fromEntries(c.counts()), { timeout: 30_000 })
      .toEqual({
        [`${p1}|2026-11-21T10:01`]: 3,
        [`${p1}|2026-11-21T10:02`]: 2,
        [`${p2}|2026-11-21T10:01`]: 4,
      });
    await expect.poll(() => c.stats().deadLettered, { timeout: 10_000 }).toBe(1);
    await c.stop();
    await log.close();
  });
});
