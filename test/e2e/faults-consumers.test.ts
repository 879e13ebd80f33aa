import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaLog } from '@devtrail/message-log';
import { topicNames } from '@devtrail/contract';
import { DLQ_HEADERS } from '@devtrail/consumer-kit';
import { ingest, pipeline, stackScript, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../support/stack.ts';

// Issue 4: the consumer side under faults. Exactly the acknowledged events end up
// counted (no loss, no double count) after a SIGKILL mid-stream and after a 20 s
// ClickHouse outage; a poison message is dead-lettered and consumption goes on.
const up = await stackUp();

async function steadyStream(receiver: ServiceProcess, key: string, tag: string, perRequest = 50) {
  let acked = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      const r = await ingest(receiver, '/ingest/logs', key, { logs: Array.from({ length: perRequest }, (_, i) => ({ level: 'info', message: `${tag}-${i}` })) }).catch(
        () => null,
      );
      if (r?.status === 200) acked += perRequest;
      await new Promise((res) => setTimeout(res, 25));
    }
  })();
  return {
    acked: () => acked,
    stop: async () => {
      running = false;
      await done;
      return acked;
    },
  };
}

describe.skipIf(!up)(`consumers under faults${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let receiver: ServiceProcess;
  let consumers: ServiceProcess;
  let project: { id: string; key: string };
  const count = () => p.count('logs', 'project_id = {p:String}', { p: project.id });
  const metrics = async () => (await (await fetch(`${consumers.url}/metrics`)).json()).consumers as Array<Record<string, any>>;

  beforeAll(async () => {
    p = await pipeline({ CONSUMER_BATCH_ROWS: '2000' }, { sendsPoison: true });
    receiver = await p.start('receiver');
    consumers = await p.start('consumers');
    const dashboard = await p.start('dashboard');
    const c = JSON.parse((await p.cli(['project', 'create', 'faults', '--json'], dashboard)).stdout);
    project = { id: c.project.id, key: c.api_key };
  }, 180_000);
  afterAll(async () => {
    await stackScript('clickhouse', 'start').catch(() => {});
    await p?.close();
  });

  it('counts exactly what was acknowledged after a SIGKILL of the consumer mid-stream', { timeout: 120_000 }, async () => {
    const s = await steadyStream(receiver, project.key, 'kill');
    await expect.poll(count, { timeout: 10_000 }).toBeGreaterThan(200);
    await p.stop(consumers, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 1500)); // the stream goes on into Kafka meanwhile
    consumers = await p.start('consumers');
    await new Promise((r) => setTimeout(r, 1500));
    const acked = await s.stop();
    expect(acked).toBeGreaterThan(500);
    await expect.poll(count, { timeout: 30_000, interval: 250 }).toBe(acked);
    // And it stays exact (no late duplicates counted).
    await new Promise((r) => setTimeout(r, 1500));
    expect(await count()).toBe(acked);
  });

  it('lands exactly the acknowledged count after ClickHouse is down for 20 s, without a consumer crash', { timeout: 180_000 }, async () => {
    const base = await count();
    const s = await steadyStream(receiver, project.key, 'ch-outage');
    await new Promise((r) => setTimeout(r, 1000));
    await stackScript('clickhouse', 'stop');
    await new Promise((r) => setTimeout(r, 20_000));
    expect(consumers.child.exitCode).toBeNull();
    await stackScript('clickhouse', 'start');
    await new Promise((r) => setTimeout(r, 1000));
    const acked = await s.stop();
    expect(acked).toBeGreaterThan(500);
    await expect.poll(count, { timeout: 60_000, interval: 500 }).toBe(base + acked);
    expect(consumers.child.exitCode).toBeNull();
    const logsSink = (await metrics()).find((m) => m.name === 'logs-sink')!;
    expect(logsSink.retries).toBeGreaterThan(0);
    expect(logsSink.lag).toBe(0);
  });

  it('dead-letters a poison message with its reason and keeps consuming', { timeout: 60_000 }, async () => {
    const topics = topicNames(p.env.KAFKA_TOPIC_PREFIX);
    const log = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'e2e-poison' });
    const prod = log.createProducer();
    await prod.send([
      {
        topic: topics.of('log'),
        messages: [
          { key: 'poison-1', value: Buffer.from('{"this is": not json'), headers: {} },
          { key: 'poison-2', value: Buffer.from(JSON.stringify({ schema_version: 1, event_id: 'nope', kind: 'log', data: {} })), headers: {} },
        ],
      },
    ]);
    await prod.disconnect();
    const before = await count();
    expect((await ingest(receiver, '/ingest/logs', project.key, { logs: [{ level: 'info', message: 'after-poison' }] })).status).toBe(200);
    await expect.poll(count, { timeout: 10_000 }).toBe(before + 1);
    await expect.poll(async () => (await metrics()).find((m) => m.name === 'logs-sink')!.deadLettered, { timeout: 10_000 }).toBe(2);

    const dead: Array<{ key: string | null; headers: Record<string, string> }> = [];
    const c = log.createConsumer({ groupId: `dlq-peek-${p.ns}`, topics: [topics.deadLetterOf('log')] });
    await c.run(async (batch) => void dead.push(...batch.map((m) => ({ key: m.key, headers: m.headers }))));
    await expect.poll(() => dead.length, { timeout: 15_000 }).toBe(2);
    await c.stop();
    await log.close();
    expect(dead.map((d) => d.key).sort()).toEqual(['poison-1', 'poison-2']);
    for (const d of dead) {
      expect(d.headers[DLQ_HEADERS.reason]).toMatch(/^undecodable/);
      expect(d.headers[DLQ_HEADERS.sourceTopic]).toBe(topics.of('log'));
    }
  });
});
