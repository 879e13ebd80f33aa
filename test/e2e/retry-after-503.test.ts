import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaLog, type ConsumedMessage } from '@devtrail/message-log';
import { topicNames } from '@devtrail/contract';
import { privateEngine, type PrivateEngine } from '../support/private-engine.ts';
import { ingest, pipeline, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, stackUp } from '../support/stack.ts';

// A 503 that was sent on is stored once when retried (docs/api.md, "A 503 retried"): the
// broker (the suite's own, private-engine.ts) is frozen (SIGSTOP) while a request is sent, so
// the request reaches the broker's socket and its acknowledgement never comes back in time:
// 503. The broker runs again and writes it. The same body retried without an Idempotency-Key
// gets the same event ids and receive time: Kafka holds two copies, the tables one.
const up = await stackUp();

const ACK_TIMEOUT_MS = 2000;

describe.skipIf(!up)(`a 503 retried without an Idempotency-Key${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let kafka: PrivateEngine;
  let receiver: ServiceProcess;
  let project: { id: string; key: string };
  let brokerPid: number;

  beforeAll(async () => {
    kafka = await privateEngine('kafka');
    brokerPid = Number(readFileSync(join(kafka.dir, 'run', 'kafka.pid'), 'utf8').trim());
    p = await pipeline({ INGEST_ACK_TIMEOUT_MS: String(ACK_TIMEOUT_MS), RATE_LIMIT_PER_MINUTE: '1000000' }, { engines: { kafkaBrokers: [kafka.address] } });
    receiver = await p.start('receiver');
    await p.start('consumers');
    const dashboard = await p.start('dashboard');
    const c = JSON.parse((await p.cli(['project', 'create', 'retry-503', '--json'], dashboard)).stdout);
    project = { id: c.project.id, key: c.api_key };
  }, 180_000);
  afterAll(async () => {
    if (brokerPid) process.kill(brokerPid, 'SIGCONT');
    await p?.close();
    await kafka?.close();
  });

  /** The logs topic's messages that hold the marker. */
  async function messagesWith(marker: string): Promise<ConsumedMessage[]> {
    const log = createKafkaLog({ brokers: [kafka.address], clientId: 'retry-peek' });
    const topic = topicNames(p.env.KAFKA_TOPIC_PREFIX).of('log');
    const out: ConsumedMessage[] = [];
    try {
      const marks = await log.watermarks(topic);
      await log.read(
        topic,
        marks.map((m) => ({ partition: m.partition, from: m.low, to: m.high })),
        async (ms) => void out.push(...ms.filter((m) => m.value?.toString().includes(marker))),
      );
    } finally {
      await log.close();
    }
    return out;
  }

  const stored = (marker: string) => p.count('logs', 'project_id = {p:String} AND startsWith(message, {m:String})', { p: project.id, m: marker });

  /** Sends until the answer is 200 (the receiver's producer finds the broker again). */
  async function until200(body: unknown) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const r = await ingest(receiver, '/ingest/logs', project.key, body);
      if (r.status === 200 || Date.now() > deadline) return r;
      expect(r.status).toBe(503);
      await new Promise((res) => setTimeout(res, 500));
    }
  }

  it('stores a request answered 503 after Kafka took it once, when the same body is retried', { timeout: 180_000 }, async () => {
    expect((await until200({ logs: [{ level: 'info', message: 'warm-up' }] })).status).toBe(200);
    const marker = `retried-${randomUUID()}`;
    // One entry without a timestamp: its time is the receive time, which the retry must share too.
    const body = {
      logs: [
        { level: 'info', message: `${marker} a`, timestamp: '2026-11-21T10:00:00.000Z' },
        { level: 'warn', message: `${marker} b` },
        { level: 'error', message: `${marker} c`, metadata: { n: 3 } },
      ],
    };

    process.kill(brokerPid, 'SIGSTOP');
    let first: Awaited<ReturnType<typeof ingest>>;
    try {
      first = await ingest(receiver, '/ingest/logs', project.key, body);
    } finally {
      process.kill(brokerPid, 'SIGCONT');
    }
    expect(first.status).toBe(503);
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(0);
    // The broker, running again, writes what it was sent: the 503'd request is in Kafka after all.
    await expect.poll(async () => (await messagesWith(marker)).length, { timeout: 30_000, interval: 500 }).toBe(1);

    const retry = await until200(body);
    expect(retry.status).toBe(200);
    const copies = await messagesWith(marker);
    expect(copies.length).toBeGreaterThanOrEqual(2);
    const facts = copies.map((m) => [m.headers['dt-event-ids'], m.headers['dt-received-at'], m.key]);
    for (const f of facts) expect(f).toEqual(facts[0]);

    // Stored once: three rows, whatever the copies (the tables de-duplicate by event id).
    await expect.poll(() => stored(marker), { timeout: 30_000, interval: 500 }).toBe(3);
    await new Promise((r) => setTimeout(r, 2000)); // a second copy written late would show here
    expect(await stored(marker)).toBe(3);

    // Once a retry is stored the request is forgotten: the same body again is new events.
    expect((await ingest(receiver, '/ingest/logs', project.key, body)).status).toBe(200);
    await expect.poll(() => stored(marker), { timeout: 30_000, interval: 500 }).toBe(6);
    const ids = new Set((await messagesWith(marker)).map((m) => m.headers['dt-event-ids']));
    expect(ids.size).toBe(2);
  });

  it('gives a different body ids of its own', { timeout: 120_000 }, async () => {
    const marker = `other-${randomUUID()}`;
    const body = { logs: [{ level: 'info', message: `${marker} x` }] };
    process.kill(brokerPid, 'SIGSTOP');
    try {
      expect((await ingest(receiver, '/ingest/logs', project.key, body)).status).toBe(503);
    } finally {
      process.kill(brokerPid, 'SIGCONT');
    }
    // Another body (one character more) is not the 503'd request: it gets ids of its own.
    const other = { logs: [{ level: 'info', message: `${marker} xy` }] };
    expect((await until200(other)).status).toBe(200);
    expect((await until200(body)).status).toBe(200);
    await expect.poll(() => stored(marker), { timeout: 30_000, interval: 500 }).toBe(2);
    const byMessage = new Map((await messagesWith(marker)).map((m) => [JSON.parse(m.value!.toString()).logs[0].message, m.headers['dt-event-ids']]));
    expect(byMessage.get(`${marker} x`)).not.toBe(byMessage.get(`${marker} xy`));
  });
});
