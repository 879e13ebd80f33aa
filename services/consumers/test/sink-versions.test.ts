import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@devtrail/config';
import { countLogs } from '../../../test/support/stored-counts.ts';
import { createClickHouseStore, ensureClickHouseDatabase, migrateColumnStore, type ColumnStore } from '@devtrail/column-store';
import { encodeAsSent, encodeBatch, newEvents, sequentialIds, topicNames, type Topics } from '@devtrail/contract';
import { encodeEnvelope, newEnvelope } from '../../../test/support/envelopes.ts';
import { KIND_TABLES, logsToEvents } from '@devtrail/kinds';
import { createKafkaLog, type MessageLog } from '@devtrail/message-log';
import { createSink } from '../src/index.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../../../test/support/stack.ts';

// A rolling upgrade on the real engines: while old receivers (one message per event,
// schema version 1) and new ones (one message per request, version 2, or the request as
// sent, version 3) write the same topic, the log sink stores every event of each, once.
const up = await stackUp();

describe.skipIf(!up)(`log sink during a rolling upgrade (real Kafka and ClickHouse)${up ? '' : ` — skipped: ${NO_STACK_REASON}`}`, () => {
  let log: MessageLog;
  let store: ColumnStore;
  let topics: Topics;
  const database = `dt_versions_${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    log = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'sink-versions' });
    topics = topicNames(`versions-${randomBytes(4).toString('hex')}.`);
    await log.ensureTopics(topics.all(), 3);
    await ensureClickHouseDatabase({ url: STACK.clickhouseUrl, database });
    store = createClickHouseStore({ url: STACK.clickhouseUrl, database });
    await migrateColumnStore(store, KIND_TABLES, { retentionDays: 30 });
  });
  afterAll(async () => {
    await log?.close();
    await store?.command(`DROP DATABASE IF EXISTS ${database}`);
    await store?.close();
  });

  it('stores the events of version-1, version-2 and version-3 messages side by side, each once', { timeout: 60_000 }, async () => {
    const project = randomUUID();
    const now = new Date().toISOString();
    const events = (n: number, tag: string) =>
      logsToEvents({ service: 's', environment: 'e', logs: Array.from({ length: n }, (_, i) => ({ level: 'info' as const, message: `${tag}-${i}` })) }, now);
    const v2 = [encodeBatch('log', project, now, newEvents(events(100, 'new-a'))), encodeBatch('log', project, now, newEvents(events(50, 'new-b')))];
    const v1 = events(30, 'old').map((d) => encodeEnvelope(newEnvelope('log', project, now, d)));
    const ids = sequentialIds(40);
    const request = { service: 's', environment: 'e', logs: Array.from({ length: 40 }, (_, i) => ({ level: 'info', message: `sent-${i}` })) };
    const v3 = encodeAsSent({
      kind: 'log',
      projectId: project,
      receivedAt: now,
      body: Buffer.from(JSON.stringify(request)),
      ids,
      retentionDays: 30,
      certificate: 'unchanged rules=none',
      key: ids[0],
    });
    const producer = log.createProducer();
    await producer.send([{ topic: topics.of('log'), messages: [v1.slice(0, 15), v2[0], v3, v1.slice(15), v2[1]].flat() }]);
    await producer.send([{ topic: topics.of('log'), messages: [v2[0], v3] }]); // batches delivered twice
    await producer.disconnect();

    const sink = createSink('log', {
      messageLog: log,
      columnStore: store,
      topics,
      groupPrefix: `versions-${randomBytes(3).toString('hex')}-`,
      batchRows: 1000,
      batchMs: 200,
      retryMaxMs: 1000,
      unknownErrorRetries: 5,
      logger: createLogger('silent', 'sink-versions'),
      retentionDays: 30,
      deleted: Object.assign(new Set<string>(), { covers: () => false }),
    });
    await sink.start();
    try {
      await expect.poll(() => countLogs(store, project), { timeout: 30_000, interval: 250 }).toBe(220);
      expect(sink.stats()).toMatchObject({ deadLettered: 0 });
    } finally {
      await sink.stop();
    }
  });
});
