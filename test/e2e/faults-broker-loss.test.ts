import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@clickhouse/client';
import { topicNames } from '@devtrail/contract';
import { pipeline, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../support/stack.ts';
import { busiestLeader, clusterEnv, clusterScript, mustCluster, partitionLayout, topicConfigValue } from '../support/kafka-cluster.ts';

// A production-shaped Kafka (three brokers, replication factor 3,
// min.insync.replicas 2) loses the broker that leads the most partitions to a SIGKILL
// under steady load through the real receiver, and gets it back later. The receiver
// answers every request (200, or 503 with Retry-After; never another status, never a
// hang), keeps acknowledging while two brokers remain, and afterwards every event that
// got a 200 is in ClickHouse exactly once. The test starts the three-node cluster
// (deploy/scripts/kafka-cluster.sh) unless it already runs, and stops what it started.
const up = await stackUp();

const PER_REQUEST = 25;
const WORKERS = 2;
/** Longer than any answer may take (the receiver gives up on Kafka after 5 s): past it, a request hung. */
const HANG_MS = 20_000;

type Outcome = { status: number; retryAfter: string | null; body: unknown } | { hung: true } | { error: string };

describe.skipIf(!up)(`Kafka broker loss on a three-node cluster${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let receiver: ServiceProcess;
  let project: { id: string; key: string };
  let brokers: string[];
  let startedCluster = false;
  let killed: number | undefined;

  beforeAll(async () => {
    if ((await clusterScript('status')).code !== 0) {
      await mustCluster('up');
      startedCluster = true;
    }
    const env = await clusterEnv();
    brokers = env.KAFKA_BROKERS.split(',');
    expect(env.KAFKA_REPLICATION_FACTOR).toBe('3');
    // Requests per minute per key: the load below must meet Kafka, not the rate limiter.
    p = await pipeline({ ...env, RATE_LIMIT_PER_MINUTE: '1000000' });
    receiver = await p.start('receiver');
    await p.start('consumers');
    const dashboard = await p.start('dashboard');
    const c = JSON.parse((await p.cli(['project', 'create', 'broker-loss', '--json'], dashboard)).stdout);
    project = { id: c.project.id, key: c.api_key };
  }, 240_000);

  afterAll(async () => {
    if (killed !== undefined) await clusterScript('start', killed);
    await p?.close();
    if (startedCluster) await clusterScript('down');
  }, 120_000);

  it('keeps answering and stores every acknowledged event exactly once when the busiest leader is SIGKILLed', { timeout: 240_000 }, async () => {
    const topics = topicNames(p.env.KAFKA_TOPIC_PREFIX).all();
    const before = await partitionLayout(brokers, topics);
    // The topics devtrail created are replicated three ways, and a write needs two of them.
    expect(before.length).toBe(topics.length * 3);
    for (const part of before) expect(part.replicas).toHaveLength(3);
    for (const topic of topics) expect(await topicConfigValue(brokers, topic, 'min.insync.replicas')).toBe('2');

    const acked: string[] = [];
    const outcomes: Outcome[] = [];
    let n = 0;
    let streaming = true;
    const worker = async (w: number) => {
      while (streaming) {
        const ids = Array.from({ length: PER_REQUEST }, (_, i) => `bl-${w}-${n}-${i}`);
        n++;
        let outcome: Outcome;
        try {
          const r = await fetch(`${receiver.url}/ingest/logs`, {
            method: 'POST',
            headers: { authorization: `Bearer ${project.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ logs: ids.map((message) => ({ level: 'info', message })) }),
            signal: AbortSignal.timeout(HANG_MS),
          });
          const text = await r.text();
          outcome = { status: r.status, retryAfter: r.headers.get('retry-after'), body: text ? JSON.parse(text) : text };
          if (r.status === 200) acked.push(...ids);
        } catch (err) {
          outcome = (err as Error).name === 'TimeoutError' ? { hung: true } : { error: String(err) };
        }
        outcomes.push(outcome);
        await new Promise((res) => setTimeout(res, 20));
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));

    await expect.poll(() => acked.length, { timeout: 15_000 }).toBeGreaterThan(20 * PER_REQUEST);
    const { node, leads } = busiestLeader(before);
    expect(leads).toBeGreaterThan(0);
    killed = node;
    await mustCluster('kill', node);
    const ackedAtKill = acked.length;
    const outcomesAtKill = outcomes.length;

    // Two brokers remain, enough for min.insync.replicas=2: after the leaders move,
    // the receiver acknowledges again while the third broker is still down.
    await expect.poll(() => acked.length, { timeout: 45_000, interval: 250 }).toBeGreaterThan(ackedAtKill + 40 * PER_REQUEST);
    const during = await partitionLayout(brokers, topics);
    for (const part of during) expect(part.leader).not.toBe(node);
    const answeredWhileDown = outcomes.length - outcomesAtKill;

    await mustCluster('start', node);
    killed = undefined;
    const ackedAtRestart = acked.length;
    await expect.poll(() => acked.length, { timeout: 30_000 }).toBeGreaterThan(ackedAtRestart + 20 * PER_REQUEST);
    streaming = false;
    await load;

    // Every request got an answer: 200, or 503 with Retry-After and the unavailable body.
    const statuses = new Map<string, number>();
    for (const o of outcomes) {
      const k = 'status' in o ? String(o.status) : 'hung' in o ? 'hung' : `error: ${o.error}`;
      statuses.set(k, (statuses.get(k) ?? 0) + 1);
    }
    console.log(
      `broker loss: killed node ${node} (led ${leads} of ${before.length} partitions); ${answeredWhileDown} requests answered while it was down; answers ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect([...statuses.keys()].filter((k) => k !== '200' && k !== '503')).toEqual([]);
    for (const o of outcomes) {
      if (!('status' in o) || o.status !== 503) continue;
      expect(Number(o.retryAfter)).toBeGreaterThan(0);
      expect(o.body).toEqual({ error: expect.stringMatching(/unavailable/i) });
    }

    // Every acknowledged event is in ClickHouse exactly once (one row per event id as the
    // read API sees it, one event id per message); nothing, acknowledged or not, twice.
    const ch = createClient({ url: STACK.clickhouseUrl });
    const stored = async () => {
      const r = await ch.query({
        query: `SELECT message, count() AS n, uniqExact(event_id) AS ids FROM ${p.env.CLICKHOUSE_DATABASE}.logs FINAL WHERE project_id = {p:String} GROUP BY message`,
        query_params: { p: project.id },
        format: 'JSONEachRow',
      });
      return new Map((await r.json<{ message: string; n: string; ids: string }>()).map((row) => [row.message, { n: Number(row.n), ids: Number(row.ids) }]));
    };
    let rows = new Map<string, { n: number; ids: number }>();
    await expect
      .poll(
        async () => {
          rows = await stored();
          return acked.filter((id) => !rows.has(id)).length;
        },
        { timeout: 90_000, interval: 1000 },
      )
      .toBe(0);
    await ch.close();
    expect(acked.length).toBeGreaterThan(0);
    const twice = [...rows].filter(([, r]) => r.n !== 1 || r.ids !== 1);
    expect(twice).toEqual([]);
  });
});
