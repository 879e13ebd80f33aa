import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createKafkaLog, type Consumer } from '../src/index.ts';
import { isConnectionLoss } from '../src/kafka-connection-loss.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../../../test/support/stack.ts';

// Rebalances are not outages: while members join and leave a consumer group over and over on
// the real broker, the other members' heartbeats are answered REBALANCE_IN_PROGRESS, which
// kafkajs logs as an error of its Connection. The broker answered: the message log must not
// call it unreachable (no "kafka unreachable" line), readiness (ping) stays up and the lag the
// consumers' metrics read is answered. A broker
// that is really gone still is unreachable.

interface Line {
  level: string;
  msg: string;
}

const STORM_MS = 20_000;

describe.skipIf(!(await stackUp()))(`Kafka reachability under a consumer-group storm (real broker)${(await stackUp()) ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  it('logs no outage and stays ready while a group rebalances for seconds on end', { timeout: 120_000 }, async () => {
    const lines: Line[] = [];
    const log = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'storm', log: (level, msg) => void lines.push({ level, msg }) });
    const topic = `storm-${randomBytes(4).toString('hex')}`;
    const groupId = `${topic}-group`;
    await log.ensureTopics([topic], 6);
    const producer = log.createProducer();
    await producer.send([{ topic, messages: Array.from({ length: 60 }, (_, i) => ({ key: `k${i}`, value: Buffer.from(`m${i}`), headers: {} })) }]);

    const pings: Array<'up' | string> = [];
    const lags: Array<'ok' | string> = [];
    const members = new Set<Consumer>();
    const join = async () => {
      const c = log.createConsumer({ groupId, topics: [topic], sessionTimeoutMs: 6000, heartbeatIntervalMs: 300 });
      members.add(c);
      void c.run(async () => {}).catch(() => {});
      return c;
    };
    const leave = async (c: Consumer) => {
      members.delete(c);
      await c.stop();
    };
    const end = Date.now() + STORM_MS;
    // Two members stay for the whole storm (their heartbeats meet every rebalance); others come and go.
    const steady = [await join(), await join()];
    const churn = (async () => {
      while (Date.now() < end) {
        const c = await join();
        await new Promise((r) => setTimeout(r, 700 + Math.random() * 800));
        await leave(c);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const probe = (async () => {
      while (Date.now() < end) {
        pings.push(
          await log.ping().then(
            () => 'up',
            (err) => (err as Error).message,
          ),
        );
        // The consumers' lag metric reads this (an absent series while Kafka is unreachable).
        lags.push(
          await log.lag(groupId, [topic]).then(
            () => 'ok',
            (err) => (err as Error).message,
          ),
        );
        await producer.send([{ topic, messages: [{ key: 'p', value: Buffer.from('during the storm'), headers: {} }] }]);
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    await Promise.all([churn, probe]);
    for (const c of steady) await leave(c);
    await producer.disconnect();
    await log.close();

    // The storm happened: the broker answered heartbeats with "rebalancing".
    expect(lines.filter((l) => l.level === 'debug' && /rebalanc/i.test(l.msg)).length, 'REBALANCE_IN_PROGRESS answers seen').toBeGreaterThan(0);
    expect(lines.filter((l) => /kafka unreachable/.test(l.msg)).map((l) => l.msg)).toEqual([]);
    expect(pings.filter((p) => p !== 'up')).toEqual([]);
    expect(lags.filter((l) => l !== 'ok')).toEqual([]);
    expect(pings.length).toBeGreaterThan(10);
  });

  it('still calls a broker that is gone unreachable', { timeout: 60_000 }, async () => {
    const lines: Line[] = [];
    // Nothing listens on port 1: every connection is refused.
    const log = createKafkaLog({ brokers: ['127.0.0.1:1'], clientId: 'gone', sendTimeoutMs: 1500, log: (level, msg) => void lines.push({ level, msg }) });
    const producer = log.createProducer();
    await expect(producer.send([{ topic: 'nowhere', messages: [{ key: null, value: Buffer.from('x'), headers: {} }] }])).rejects.toThrow();
    await expect(log.ping()).rejects.toThrow();
    await log.close();
    expect(lines.filter((l) => l.level === 'warn' && l.msg === 'kafka unreachable')).toHaveLength(1);
  });

  it('tells a lost socket from an answer', () => {
    expect(isConnectionLoss('Connection error: connect ECONNREFUSED 127.0.0.1:1')).toBe(true);
    expect(isConnectionLoss('Connection timeout')).toBe(true);
    expect(isConnectionLoss('Response Heartbeat(key: 12, version: 3)')).toBe(false);
    expect(isConnectionLoss('Response JoinGroup(key: 11, version: 5)')).toBe(false);
  });
});
