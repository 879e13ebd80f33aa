import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@clickhouse/client';
import { privateEngine, type PrivateEngine } from '../support/private-engine.ts';
import { ingest, pipeline, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, stackUp } from '../support/stack.ts';
import { logLines, nonJsonOutput, reachabilityLines, levelSummary, stateChangeProblems } from '../support/log-lines.ts';

// Kafka lost under a steady stream, once stopped and once killed. Readiness
// turns 503 and back; a POST that Kafka cannot take answers 503 with Retry-After within the
// request's deadline; every event that got a 200 is stored; a 503'd request retried with its
// Idempotency-Key is stored once, however many times it was sent; and every line the
// processes write meanwhile is JSON, with one line per process when Kafka goes and one when
// it is back. The broker lost is the suite's own (private-engine.ts); the suite still runs in the
// serial tail (test/lanes.ts), for its deadline is measured.
const up = await stackUp();

/** The receiver's deadline for Kafka's acknowledgement, counted from the request's arrival. */
const ACK_TIMEOUT_MS = 3000;
/** What an answer may take beyond the deadline: the request's own work on a shared 2-core machine. */
const MARGIN_MS = 1000;
/** Past this the test stops waiting for an answer: the request hung. */
const HANG_MS = 20_000;
const PER_REQUEST = 5;
const WORKERS = 2;

interface Answer {
  status: number | 'hung' | 'network error';
  ms: number;
  retryAfter: string | null;
  body: unknown;
}

interface Sent {
  key: string;
  body: { logs: Array<{ level: string; message: string; timestamp: string }> };
  answers: Answer[];
}

describe.skipIf(!up)(`Kafka outage${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let kafka: PrivateEngine;
  let receiver: ServiceProcess;
  let project: { id: string; key: string };
  let outages = 0;

  beforeAll(async () => {
    kafka = await privateEngine('kafka');
    p = await pipeline(
      { LOG_LEVEL: 'debug', INGEST_ACK_TIMEOUT_MS: String(ACK_TIMEOUT_MS), RATE_LIMIT_PER_MINUTE: '1000000' },
      { engines: { kafkaBrokers: [kafka.address] } },
    );
    receiver = await p.start('receiver');
    await p.start('consumers');
    const dashboard = await p.start('dashboard');
    const c = JSON.parse((await p.cli(['project', 'create', 'kafka-outage', '--json'], dashboard)).stdout);
    project = { id: c.project.id, key: c.api_key };
  }, 180_000);
  afterAll(async () => {
    await p?.close();
    await kafka?.close();
  });

  it('answers 503 while Kafka is down and loses nothing it acknowledged', { timeout: 180_000 }, async () => {
    const acked: string[] = [];
    const refused: Array<{ status: number; retryAfter: string | null; body: unknown }> = [];
    let n = 0;
    let streaming = true;
    const stream = (async () => {
      while (streaming) {
        const id = `ev-${n++}`;
        const r = await ingest(receiver, '/ingest/logs', project.key, { logs: [{ level: 'info', message: id }] }).catch(() => null);
        if (r?.status === 200) acked.push(id);
        else if (r) refused.push({ status: r.status, retryAfter: r.headers.get('retry-after'), body: r.body });
        await new Promise((res) => setTimeout(res, 20));
      }
    })();

    // Flowing first (a loaded machine may take seconds over the first requests).
    await expect.poll(() => acked.length, { timeout: 20_000 }).toBeGreaterThan(5);
    outages++;
    await kafka.stop();
    await expect.poll(async () => (await fetch(`${receiver.url}/health/ready`)).status, { timeout: 15_000 }).toBe(503);
    const ready = await (await fetch(`${receiver.url}/health/ready`)).json();
    expect(ready.checks.kafka.status).toBe('down');
    expect(ready.checks.clickhouse.status).toBe('up');
    expect(ready.checks.postgres.status).toBe('up');
    await expect.poll(() => refused.length, { timeout: 20_000 }).toBeGreaterThan(2);

    await kafka.start();
    await expect.poll(async () => (await fetch(`${receiver.url}/health/ready`)).status, { timeout: 30_000 }).toBe(200);
    const ackedAtRecovery = acked.length;
    await expect.poll(() => acked.length, { timeout: 30_000 }).toBeGreaterThan(ackedAtRecovery + 5);
    streaming = false;
    await stream;

    for (const r of refused) {
      expect(r.status).toBe(503);
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
      expect(r.body).toEqual({ error: expect.stringMatching(/unavailable/i) });
    }
    // Every acknowledged event reaches ClickHouse (through Kafka and the consumer).
    const ch = createClient({ url: p.engines.clickhouseUrl });
    const stored = async () =>
      new Set(
        (
          await (
            await ch.query({
              query: `SELECT message FROM ${p.env.CLICKHOUSE_DATABASE}.logs FINAL WHERE project_id = {p:String}`,
              query_params: { p: project.id },
              format: 'JSONEachRow',
            })
          ).json<{ message: string }>()
        ).map((r) => r.message),
      );
    let awaitedStored: Set<string> | undefined;
    await expect
      .poll(
        async () => {
          awaitedStored = await stored();
          return acked.filter((id) => !awaitedStored!.has(id)).length;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(0);
    await ch.close();
  });

  it('after a SIGKILL of Kafka, every 503 retried with its Idempotency-Key is stored exactly once, and no answer waits past the deadline', {
    timeout: 240_000,
  }, async () => {
    const requests: Sent[] = [];
    const send = async (req: Sent): Promise<Answer> => {
      const t0 = performance.now();
      let answer: Answer;
      try {
        const r = await fetch(`${receiver.url}/ingest/logs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${project.key}`, 'content-type': 'application/json', 'idempotency-key': req.key },
          body: JSON.stringify(req.body),
          signal: AbortSignal.timeout(HANG_MS),
        });
        const text = await r.text();
        answer = { status: r.status, ms: performance.now() - t0, retryAfter: r.headers.get('retry-after'), body: text.startsWith('{') ? JSON.parse(text) : text };
      } catch (err) {
        answer = { status: (err as Error).name === 'TimeoutError' ? 'hung' : 'network error', ms: performance.now() - t0, retryAfter: null, body: String(err) };
      }
      req.answers.push(answer);
      return answer;
    };
    const ok = () => requests.filter((r) => r.answers.at(-1)?.status === 200).length;
    const notOk = () => requests.filter((r) => r.answers.at(-1)?.status !== 200).length;

    // Each request its own key (a fresh UUID) and events with their own time and a unique marker.
    let streaming = true;
    const worker = async (w: number) => {
      for (let n = 0; streaming; n++) {
        const timestamp = new Date().toISOString();
        const req: Sent = {
          key: randomUUID(),
          body: { logs: Array.from({ length: PER_REQUEST }, (_, i) => ({ level: 'info', message: `kill-${w}-${n}-${i}`, timestamp })) },
          answers: [],
        };
        requests.push(req);
        await send(req);
        await new Promise((res) => setTimeout(res, 50));
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));

    await expect.poll(ok, { timeout: 15_000 }).toBeGreaterThan(20);
    outages++;
    const t0 = Date.now();
    await kafka.kill();
    // Down until the receiver knows: its readiness says Kafka is down, and requests were refused.
    await expect.poll(async () => (await fetch(`${receiver.url}/health/ready`)).status, { timeout: 30_000 }).toBe(503);
    await expect.poll(notOk, { timeout: 30_000 }).toBeGreaterThan(2);
    await kafka.start();
    const restartedAfterMs = Date.now() - t0;
    const okAtRestart = ok();
    await expect.poll(() => ok(), { timeout: 60_000 }).toBeGreaterThan(okAtRestart + 20);
    streaming = false;
    await load;

    // Kafka is back: every request not answered 200 is sent again, same key, same body, until it is.
    const failed = requests.filter((r) => r.answers.at(-1)!.status !== 200);
    const retryQueue = [...failed];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let req = retryQueue.shift(); req; req = retryQueue.shift()) {
          for (let attempt = 0; attempt < 20 && (await send(req)).status !== 200; attempt++) await new Promise((r) => setTimeout(r, 500));
        }
      }),
    );

    const answers = requests.flatMap((r) => r.answers);
    const statuses: Record<string, number> = {};
    for (const a of answers) statuses[String(a.status)] = (statuses[String(a.status)] ?? 0) + 1;
    const slowest = Math.max(...answers.map((a) => a.ms));
    const late = answers.filter((a) => a.ms > ACK_TIMEOUT_MS + MARGIN_MS);

    // What ClickHouse holds (FINAL, as every read sees it): rows and event ids per marker.
    const markers = requests.flatMap((r) => r.body.logs.map((l) => l.message));
    const ch = createClient({ url: p.engines.clickhouseUrl });
    const stored = async () => {
      const r = await ch.query({
        query: `SELECT message, count() AS n, uniqExact(event_id) AS ids FROM ${p.env.CLICKHOUSE_DATABASE}.logs FINAL
                  WHERE project_id = {p:String} AND startsWith(message, 'kill-') GROUP BY message`,
        query_params: { p: project.id },
        format: 'JSONEachRow',
      });
      return new Map((await r.json<{ message: string; n: string; ids: string }>()).map((row) => [row.message, { n: Number(row.n), ids: Number(row.ids) }]));
    };
    let rows = new Map<string, { n: number; ids: number }>();
    const missing = async () => {
      rows = await stored();
      return markers.filter((m) => !rows.has(m)).length;
    };
    // Waits for the consumers to catch up; the assertions below say what is missing, if anything.
    for (const until = Date.now() + 60_000; (await missing()) > 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 1000));
    await ch.close();
    const twice = [...rows].filter(([, r]) => r.n !== 1 || r.ids !== 1);
    console.log(
      `Kafka SIGKILL: back after ${restartedAfterMs} ms; ${requests.length} requests (${markers.length} events), ${failed.length} not answered 200 and retried with their key; answers ${JSON.stringify(statuses)}; slowest ${Math.round(slowest)} ms, ${late.length} past ${ACK_TIMEOUT_MS} + ${MARGIN_MS} ms; stored ${rows.size} distinct events, ${twice.length} of them more than once`,
    );

    // Every request ends with a 200; before that, only 503 with Retry-After.
    expect(requests.filter((r) => r.answers.at(-1)!.status !== 200)).toEqual([]);
    for (const a of answers.filter((a) => a.status !== 200)) expect(a).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^[1-9]\d*$/) });
    // No answer waited past the deadline (plus the margin).
    expect(late.map((a) => Math.round(a.ms))).toEqual([]);
    // Each event sent is stored, once: one row and one event id per marker, and nothing else.
    expect(markers.filter((m) => !rows.has(m))).toEqual([]);
    expect(twice.slice(0, 10)).toEqual([]);
    expect(rows.size).toBe(markers.length);
  });

  it('wrote only JSON lines with a level through both outages, and a line per state change of Kafka, not one per failed request', () => {
    console.log(`log lines: ${levelSummary(p.started())}`);
    expect(outages).toBe(2);
    expect(nonJsonOutput(p.started())).toEqual({});
    for (const proc of p.started().filter((x) => x.name !== 'dashboard')) {
      // A broker that has just come back can fail once more while its partitions' leaders
      // settle: a change too, so a flap is allowed (stateChangeProblems says how much).
      expect({ process: proc.name, problems: stateChangeProblems(reachabilityLines(proc.stdout(), 'kafka'), 'kafka', outages) }).toEqual({
        process: proc.name,
        problems: [],
      });
    }
    // kafkajs's own lines (connection errors, retries, restarts) are debug.
    const kafkajs = p.started().flatMap((x) => logLines(x.stdout()).filter((l) => l.msg?.startsWith('kafkajs:')));
    expect(kafkajs.filter((l) => l.level > 20).map((l) => l.msg)).toEqual([]);
  });
});
