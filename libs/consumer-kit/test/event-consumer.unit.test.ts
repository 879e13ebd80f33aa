import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeAsSent, encodeBatch, HEADERS, newEvents, sequentialIds, topicNames, type Envelope } from '@devtrail/contract';
import { encodeEnvelope, newEnvelope } from '../../../test/support/envelopes.ts';
import { Failure } from '@devtrail/failures';
import { logsToEvents, metricBatchSchema, metricsToEvents } from '@devtrail/kinds';
import { createMemoryLog, type MessageLog } from '@devtrail/message-log';
import { createEventConsumer, DLQ_HEADERS, type TopicConsumer } from '../src/index.ts';

// Consumers of devtrail's own topics, over the in-process log (which passes the same
// message-log suite as Kafka): batches of events arrive as events, old single-event
// messages too, and one bad event of a batch is dead-lettered on its own.
const opened: Array<{ log: MessageLog; c: TopicConsumer }> = [];
afterEach(async () => {
  for (const { log, c } of opened.splice(0)) {
    await c.stop();
    await log.close();
  }
});

const topics = topicNames('kit.');
const now = new Date().toISOString();
const project = randomUUID();
const logs = (...messages: string[]) => logsToEvents({ service: 's', environment: 'e', logs: messages.map((message) => ({ level: 'info' as const, message })) }, now);

async function setup(write: (events: Array<Envelope<'log'>>) => Promise<void>) {
  const log = createMemoryLog();
  await log.ensureTopics(topics.all(), 2);
  const c = createEventConsumer({ kind: 'log', topics, name: 'kit-test', messageLog: log, groupId: 'g', write, batchMs: 50 });
  opened.push({ log, c });
  const producer = log.createProducer();
  const send = (...messages: Array<{ key: string | null; value: Buffer; headers: Record<string, string> }>) => producer.send([{ topic: topics.of('log'), messages }]);
  const dlq = async () => {
    const out: Array<{ value: any; headers: Record<string, string> }> = [];
    const d = log.createConsumer({ groupId: `dlq-${Math.random()}`, topics: ['g.dlq'] });
    await d.run(async (b) => void out.push(...b.map((m) => ({ value: JSON.parse(m.value!.toString()), headers: m.headers }))));
    await new Promise((r) => setTimeout(r, 150));
    await d.stop();
    return out;
  };
  return { c, send, dlq };
}

describe('event consumer kit', () => {
  it('hands over the events of a batch message and of single-event messages alike (rolling upgrade)', async () => {
    const got: string[] = [];
    const { c, send } = await setup(async (events) => void got.push(...events.map((e) => e.data.message)));
    await c.start();
    await send(
      encodeBatch('log', project, now, newEvents(logs('a', 'b', 'c'))),
      ...logs('old-1', 'old-2').map((d) => encodeEnvelope(newEnvelope('log', project, now, d))),
    );
    await expect.poll(() => [...got].sort(), { timeout: 5000 }).toEqual(['a', 'b', 'c', 'old-1', 'old-2']);
    expect(c.stats()).toMatchObject({ written: 5, deadLettered: 0 });
  });

  it('dead-letters one unreadable event of a batch alone, with its reason, and writes the others', async () => {
    const got: string[] = [];
    const { c, send, dlq } = await setup(async (events) => void got.push(...events.map((e) => e.data.message)));
    await c.start();
    const message = encodeBatch('log', project, now, newEvents(logs('ok-1', 'bad', 'ok-2')));
    const value = JSON.parse(message.value.toString());
    value.events[1].data.level = 'fatal'; // not a level: this event cannot be read
    await send({ ...message, value: Buffer.from(JSON.stringify(value)) });
    await expect.poll(() => c.stats().deadLettered, { timeout: 5000 }).toBe(1);
    await expect.poll(() => [...got].sort()).toEqual(['ok-1', 'ok-2']);
    const [dead] = await dlq();
    expect(dead.headers[DLQ_HEADERS.reason]).toMatch(/^undecodable: bad log data: level/);
    expect(dead.headers[HEADERS.eventCount]).toBe('1');
    expect(dead.value).toMatchObject({ schema_version: 2, kind: 'log', project_id: project, events: [{ event_id: value.events[1].event_id, data: { message: 'bad' } }] });
  });

  it('hands over the events of a request as sent (version 3), and dead-letters a record it refuses alone as a version-2 letter', async () => {
    const got: Array<[string, string, string]> = [];
    const { c, send, dlq } = await setup(async (events) => void got.push(...events.map((e): [string, string, string] => [e.event_id, e.data.message, e.data.service])));
    await c.start();
    const ids = sequentialIds(3);
    const body = {
      service: 'as-sent',
      logs: [
        { level: 'info', message: 'x' },
        { level: 'trace', message: 'bad' },
        { level: 'warn', message: 'y' },
      ],
    };
    await send(
      encodeAsSent({ kind: 'log', projectId: project, receivedAt: now, body: Buffer.from(JSON.stringify(body)), ids, certificate: 'unchanged rules=none', key: ids[0] }),
    );
    await expect.poll(() => c.stats().deadLettered, { timeout: 5000 }).toBe(1);
    await expect
      .poll(() => got)
      .toEqual([
        [ids[0], 'x', 'as-sent'],
        [ids[2], 'y', 'as-sent'],
      ]);
    const [dead] = await dlq();
    expect(dead.value).toMatchObject({ schema_version: 2, kind: 'log', project_id: project, received_at: now, events: [{ event_id: ids[1], data: { level: 'trace' } }] });
    expect(dead.headers).toMatchObject({
      [HEADERS.schemaVersion]: '2',
      [HEADERS.eventCount]: '1',
      [DLQ_HEADERS.reason]: expect.stringMatching(/^undecodable: bad log data/),
    });
    expect(dead.headers[HEADERS.eventIds]).toBeUndefined();
    expect(dead.headers[HEADERS.scrub]).toBeUndefined();
  });

  it('dead-letters alone the one event of a batch a write refuses for good', async () => {
    const got: string[] = [];
    const { c, send, dlq } = await setup(async (events) => {
      if (events.some((e) => e.data.message === 'poison')) throw new Failure('Cannot parse poison', false);
      got.push(...events.map((e) => e.data.message));
    });
    await c.start();
    await send(encodeBatch('log', project, now, newEvents(logs('one', 'poison', 'two', 'three'))));
    await expect.poll(() => c.stats().deadLettered, { timeout: 5000 }).toBe(1);
    await expect.poll(() => [...got].sort()).toEqual(['one', 'three', 'two']);
    const [dead] = await dlq();
    expect(dead.headers[DLQ_HEADERS.reason]).toBe('write rejected: Cannot parse poison');
    expect(dead.value.events.map((e: { data: { message: string } }) => e.data.message)).toEqual(['poison']);
  });

  it('dead-letters alone an event its mapping throws on, and letters the right event when a write later refuses one', async () => {
    const got: string[] = [];
    const log = createMemoryLog();
    await log.ensureTopics(topics.all(), 1);
    const c = createEventConsumer({
      kind: 'log',
      topics,
      name: 'map',
      messageLog: log,
      groupId: 'map',
      batchMs: 50,
      map: (e) => {
        if (e.data.message === 'unmappable') throw new Error('toRow: no row for this one');
        return e.data.message;
      },
      write: async (rows) => {
        if (rows.includes('refused')) throw new Failure('Cannot parse refused', false);
        got.push(...rows);
      },
    });
    opened.push({ log, c });
    await c.start();
    await log.createProducer().send([{ topic: topics.of('log'), messages: [encodeBatch('log', project, now, newEvents(logs('a', 'unmappable', 'b', 'refused', 'c')))] }]);
    await expect.poll(() => c.stats().deadLettered, { timeout: 5000 }).toBe(2);
    await expect.poll(() => [...got].sort()).toEqual(['a', 'b', 'c']);
    const out: Array<{ reason: string; message: string }> = [];
    const d = log.createConsumer({ groupId: 'dlq-map', topics: ['map.dlq'] });
    await d.run(
      async (b) => void out.push(...b.map((m) => ({ reason: m.headers[DLQ_HEADERS.reason], message: JSON.parse(m.value!.toString()).events[0].data.message }))),
    );
    await expect.poll(() => out.length).toBe(2);
    await d.stop();
    expect(out.sort((x, y) => x.message.localeCompare(y.message))).toEqual([
      { reason: 'write rejected: Cannot parse refused', message: 'refused' },
      { reason: 'undecodable: conversion failed: toRow: no row for this one', message: 'unmappable' },
    ]);
  });

  it("makes the group's dead-letter topic, its default or the one it names, with as many partitions as the topic it reads, before following deletions", async () => {
    const log = createMemoryLog();
    await log.ensureTopics(topics.all(), 4);
    await log.ensureTopics([topics.deletions()], 1);
    const partitions = (t: string) =>
      log.watermarks(t).then(
        (w) => w.length,
        () => 0,
      );
    const plain = createEventConsumer({ kind: 'log', topics, name: 'p', messageLog: log, groupId: 'plain', batchMs: 50, write: async () => {} });
    const named = createEventConsumer({
      kind: 'log',
      topics,
      name: 'n',
      messageLog: log,
      groupId: 'named',
      deadLetterTopic: 'named-letters',
      batchMs: 50,
      write: async () => {},
    });
    opened.push({ log, c: plain }, { log, c: named });
    await plain.start();
    await named.start();
    expect(await partitions('plain.dlq')).toBe(4);
    expect(await partitions('named-letters')).toBe(4);
    expect(await partitions('named.dlq')).toBe(0);
  });

  it('can take one event at a time', async () => {
    const got: string[] = [];
    const log = createMemoryLog();
    await log.ensureTopics(topics.all(), 1);
    const c = createEventConsumer({ kind: 'log', topics, name: 'each', messageLog: log, groupId: 'each', batchMs: 50, each: async (e) => void got.push(e.data.message) });
    opened.push({ log, c });
    await c.start();
    await log.createProducer().send([{ topic: topics.of('log'), messages: [encodeBatch('log', project, now, newEvents(logs('x', 'y')))] }]);
    await expect.poll(() => got, { timeout: 5000 }).toEqual(['x', 'y']);
  });

  it("the metrics topic: a consumer of the metric kind gets each data point with its type's fields; a point the envelope refuses is dead-lettered alone", async () => {
    const log = createMemoryLog();
    await log.ensureTopics(topics.all(), 2);
    const got: Array<Envelope<'metric'>> = [];
    const c = createEventConsumer({
      kind: 'metric',
      topics,
      name: 'kit-metrics',
      messageLog: log,
      groupId: 'gm',
      write: async (events) => void got.push(...events),
      batchMs: 50,
    });
    opened.push({ log, c });
    await c.start();
    const body = metricBatchSchema.parse({
      service: 'shop',
      metrics: [
        { metric: 'queue.depth', type: 'gauge', time: now, value: 3 },
        { metric: 'http.duration', type: 'histogram', temporality: 'cumulative', time: now, start_time: now, bounds: [10], bucket_counts: [1, 2], sum: 40 },
        { metric: 'bad', type: 'gauge', time: now, value: 1 },
      ],
    });
    const events = metricsToEvents(body, now);
    (events[2] as { bucket_counts: unknown }).bucket_counts = [-1];
    await log.createProducer().send([{ topic: topics.of('metric'), messages: [encodeBatch('metric', project, now, newEvents(events))] }]);
    await expect.poll(() => got.length, { timeout: 5000 }).toBe(2);
    expect(got.map((e) => e.kind)).toEqual(['metric', 'metric']);
    expect(got[0].data).toMatchObject({ metric: 'queue.depth', type: 'gauge', value: 3, service: 'shop' });
    expect(got[1].data).toMatchObject({ metric: 'http.duration', type: 'histogram', count: 3, bounds: [10], bucket_counts: [1, 2], sum: 40 });
    expect(topics.of('metric')).toBe('kit.metrics');
    await expect.poll(() => c.stats().deadLettered, { timeout: 5000 }).toBe(1);
  });
});
