import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaLog } from '@devtrail/message-log';
import { topicNames } from '@devtrail/contract';
import { DLQ_HEADERS } from '@devtrail/consumer-kit';
import { METRICS } from '@devtrail/metrics';
import { scrape, sumOf } from '../support/prometheus-text.ts';
import { privateEngine, type PrivateEngine } from '../support/private-engine.ts';
import { ingest, pipeline, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../support/stack.ts';
import { logLines, nonJsonOutput, reachabilityLines, levelSummary, stateChangeProblems } from '../support/log-lines.ts';

// The consumer side under faults. Exactly the acknowledged events end up
// counted (no loss, no double count) after a SIGKILL mid-stream and after a ClickHouse outage
// long enough to stall the sink for seconds, whose backlog is written once the endpoint answers
// again (the time it takes is printed, not asserted: targets live in benchmarks); a poison
// message is dead-lettered and consumption goes on. Every line the processes write meanwhile is
// JSON, with one line when ClickHouse goes and one when it is back. The ClickHouse stopped is the
// suite's own (private-engine.ts): the suites beside it keep the shared one.
const up = await stackUp();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Requests of `perRequest` logs, one every `everyMs` at most (the next waits for the previous answer). */
async function steadyStream(receiver: ServiceProcess, key: string, tag: string, perRequest = 50, everyMs = 25) {
  let acked = 0;
  let running = true;
  const done = (async () => {
    for (let n = 0, start = Date.now(); running; n++) {
      const r = await ingest(receiver, '/ingest/logs', key, { logs: Array.from({ length: perRequest }, (_, i) => ({ level: 'info', message: `${tag}-${i}` })) }).catch(
        () => null,
      );
      if (r?.status === 200) acked += perRequest;
      await sleep(Math.max(0, start + (n + 1) * everyMs - Date.now()));
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
  let clickhouse: PrivateEngine;
  let receiver: ServiceProcess;
  let consumers: ServiceProcess;
  let project: { id: string; key: string };
  const count = () => p.count('logs', 'project_id = {p:String}', { p: project.id });
  const metrics = async () =>
    (await (await fetch(`${consumers.url}/metrics`, { headers: { accept: 'application/json' } })).json()).consumers as Array<Record<string, any>>;

  beforeAll(async () => {
    clickhouse = await privateEngine('clickhouse');
    p = await pipeline({ CONSUMER_BATCH_ROWS: '2000', LOG_LEVEL: 'debug' }, { sendsPoison: true, engines: { clickhouseUrl: clickhouse.address } });
    receiver = await p.start('receiver');
    consumers = await p.start('consumers');
    const dashboard = await p.start('dashboard');
    const c = JSON.parse((await p.cli(['project', 'create', 'faults', '--json'], dashboard)).stdout);
    project = { id: c.project.id, key: c.api_key };
  }, 180_000);
  afterAll(async () => {
    await clickhouse?.start().catch(() => {});
    await p?.close();
    await clickhouse?.close();
  });
  const logsSink = async () => (await metrics()).find((m) => m.name === 'logs-sink')!;
  /** Waits until the stream has had `n` more events acknowledged than now. */
  const moreAcked = async (s: { acked: () => number }, n: number) => {
    const from = s.acked();
    await expect.poll(() => s.acked(), { timeout: 30_000, interval: 50 }).toBeGreaterThanOrEqual(from + n);
  };

  it('counts exactly what was acknowledged after a SIGKILL of the consumer mid-stream', { timeout: 120_000 }, async () => {
    const s = await steadyStream(receiver, project.key, 'kill');
    await expect.poll(count, { timeout: 10_000 }).toBeGreaterThan(200);
    await p.stop(consumers, 'SIGKILL');
    await moreAcked(s, 300); // the stream goes on into Kafka while no consumer runs
    consumers = await p.start('consumers');
    await moreAcked(s, 300); // and on while the new consumer takes the partitions up
    const acked = await s.stop();
    expect(acked).toBeGreaterThan(500);
    await expect.poll(count, { timeout: 30_000, interval: 250 }).toBe(acked);
    // And it stays exact: with everything consumed and committed (lag 0), no late duplicate is counted.
    await expect.poll(async () => (await logsSink()).lag, { timeout: 30_000, interval: 250 }).toBe(0);
    expect(await count()).toBe(acked);
  });

  it('lands exactly the acknowledged count after a ClickHouse outage that stalls the sink, without a consumer crash, and the lag back to 0 once it answers again', {
    timeout: 180_000,
  }, async () => {
    const base = await count();
    // 1,000 events/s, as in docs/benchmarks.md's fault run.
    const s = await steadyStream(receiver, project.key, 'ch-outage', 50, 50);
    await moreAcked(s, 500);
    await clickhouse.stop();
    const stoppedAt = Date.now();
    // The outage lasts until it is visible where operators look: the logs sink's batch has been
    // failing for more than 5 s, and retried.
    const stalled = async () => sumOf(await scrape(consumers.url), METRICS.stalledSeconds.name, { consumer: 'logs-sink' });
    await expect.poll(stalled, { timeout: 60_000, interval: 250 }).toBeGreaterThan(5);
    expect(consumers.child.exitCode).toBeNull();
    expect(sumOf(await scrape(consumers.url), METRICS.writeRetries.name, { consumer: 'logs-sink', cause: 'retryable' })).toBeGreaterThan(0);
    const starting = clickhouse.start();
    // The moment the endpoint answers again: what the consumers' recovery is measured from.
    let answeredAt = 0;
    while (!answeredAt) {
      const ok = await fetch(`${clickhouse.address}/ping`, { signal: AbortSignal.timeout(1000) })
        .then(async (r) => (await r.text()).trim() === 'Ok.')
        .catch(() => false);
      if (ok) answeredAt = Date.now();
      else await sleep(20);
    }
    // The stream stops there: from then on the lag can reach 0.
    const acked = await s.stop();
    await starting;
    // Polled as fast as /metrics answers (it asks Kafka for every group's offsets); the time is
    // taken when the answer is in, so the figure is an upper bound.
    let lagZeroAfterMs: number | undefined;
    let polls = 0;
    for (const until = answeredAt + 30_000; lagZeroAfterMs === undefined && Date.now() < until; polls++) {
      if ((await metrics()).every((x) => x.lag === 0)) lagZeroAfterMs = Date.now() - answeredAt;
      else await sleep(20);
    }
    // The consumers' first successful call to ClickHouse is the time of their "reachable again" line.
    const back = logLines(consumers.stdout()).find((l) => l.msg === 'clickhouse reachable again' && Date.parse(String(l.time)) >= answeredAt - 1000);
    console.log(
      `ClickHouse down ${((answeredAt - stoppedAt) / 1000).toFixed(1)} s: ${acked} events acknowledged meanwhile; after /ping answered, the consumers reached it again in ${back ? Date.parse(String(back.time)) - answeredAt : '?'} ms, lag 0 in ${lagZeroAfterMs ?? 'more than 30000'} ms (${polls} polls)`,
    );
    expect(acked).toBeGreaterThan(500);
    await expect.poll(count, { timeout: 60_000, interval: 500 }).toBe(base + acked);
    expect(consumers.child.exitCode).toBeNull();
    expect(sumOf(await scrape(consumers.url), METRICS.stalledSeconds.name, { consumer: 'logs-sink' })).toBe(0);
    const sink = await logsSink();
    expect(sink.retries).toBeGreaterThan(0);
    expect(sink.lag).toBe(0);
    // Bounded by the 30 s poll above, which only keeps a stuck consumer from hanging the suite.
    expect(lagZeroAfterMs).toBeDefined();
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

  it('wrote only JSON lines with a level, and the consumers one line when ClickHouse went and one when it was back', () => {
    console.log(`log lines: ${levelSummary(p.started())}`);
    expect(nonJsonOutput(p.started())).toEqual({});
    expect(stateChangeProblems(reachabilityLines(consumers.stdout(), 'clickhouse'), 'clickhouse', 1)).toEqual([]);
    // The ClickHouse client's failed requests are debug (each one also rejected to the consumer, which retried it).
    const client = p.started().flatMap((x) => logLines(x.stdout()).filter((l) => l.msg?.startsWith('@clickhouse/client:')));
    expect(client.filter((l) => l.level > 40).map((l) => l.msg)).toEqual([]);
  });
});
