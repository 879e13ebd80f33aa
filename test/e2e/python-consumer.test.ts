import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBatch, newEvents, topicNames } from '@devtrail/contract';
import type { EventKind } from '@devtrail/kinds';
import { createKafkaLog } from '@devtrail/message-log';
import { ingest, pipeline, ROOT, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../support/stack.ts';

// The Python example (examples/python-consumer: confluent-kafka and jsonschema from PyPI, in
// the venv of deploy/scripts/python-consumer.sh) against the real Kafka and a real receiver:
// it fetches the JSON Schema from the receiver's /schemas, validates every event, dead-letters
// what it cannot read to its group's own topic, and counts exactly the events that were sent, a
// retried request's events once, although it is killed twice: once right after committing its
// state (before Kafka's commit), once mid-stream (SIGKILL).
const up = await stackUp();
const PYTHON = join(ROOT, '.devtrail/python-consumer-venv/bin/python');
const SCRIPT = join(ROOT, 'examples/python-consumer/consumer.py');

describe.skipIf(!up)(`the Python consumer example${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let receiver: ServiceProcess;
  let project: { id: string; key: string };
  let group: string;
  const state = join(mkdtempSync(join(tmpdir(), 'python-consumer-')), 'state.sqlite');
  const sent: Record<EventKind, number> = { log: 0, error: 0, span: 0, llm: 0, session: 0, metric: 0, score: 0 };
  const send = async (path: string, body: unknown, kind: EventKind, n: number, key: string = project.key, headers: Record<string, string> = {}) => {
    const r = await ingest(receiver, path, key, body, headers);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    if (key === project.key) sent[kind] += n;
  };
  const args = (...more: string[]) => [
    SCRIPT,
    ...['--brokers', STACK.kafkaBrokers.join(','), '--prefix', p.env.KAFKA_TOPIC_PREFIX, '--schemas', `${receiver.url}/schemas`],
    ...['--group', group, '--project', project.id, '--state', state, '--until-end', ...more],
  ];
  const consume = (...more: string[]) =>
    new Promise<{ code: number; summary: any; stderr: string }>((resolve) => {
      execFile(PYTHON, args(...more), { timeout: 90_000 }, (err, stdout, stderr) => {
        const last = stdout.trim().split('\n').pop() ?? '';
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, summary: last.startsWith('{') ? JSON.parse(last) : undefined, stderr });
      });
    });

  beforeAll(async () => {
    if (!existsSync(PYTHON)) throw new Error('the Python example is not installed: run deploy/scripts/python-consumer.sh install (make install does)');
    p = await pipeline();
    group = `${p.ns}-poison-python`; // its dead-letter topic takes letters on purpose (test/support/dead-letters.ts)
    receiver = await p.start('receiver');
    const dashboard = await p.start('dashboard');
    const created = JSON.parse((await p.cli(['project', 'create', 'python', '--json'], dashboard)).stdout);
    project = { id: created.project.id, key: created.api_key };
    const other = JSON.parse((await p.cli(['project', 'create', 'other', '--json'], dashboard)).stdout);

    for (let i = 0; i < 40; i++)
      await send('/ingest/logs', { logs: Array.from({ length: 1 + (i % 5) }, (_, j) => ({ level: 'info', message: `m${i}.${j}` })) }, 'log', 1 + (i % 5));
    // A request retried with its Idempotency-Key: a second message in Kafka, with the same event ids.
    const retried = {
      logs: [
        { level: 'warn', message: 'retried 1' },
        { level: 'warn', message: 'retried 2' },
      ],
    };
    await send('/ingest/logs', retried, 'log', 2, project.key, { 'idempotency-key': `${p.ns}-retry` });
    await send('/ingest/logs', retried, 'log', 0, project.key, { 'idempotency-key': `${p.ns}-retry` });
    for (const i of [1, 2]) await send('/ingest/errors', { error_message: `boom ${i}`, stack_trace: 'Error: boom\n    at f (/a.js:1:1)' }, 'error', 1);
    for (const s of ['a', 'b', 'c'])
      await send('/ingest/traces', { trace_id: 't1', span_id: s, operation: 'op', start_time: new Date().toISOString(), duration_ms: 1 }, 'span', 1);
    for (let i = 0; i < 4; i++) await send('/ingest/llm', { model: 'm', provider: 'p', operation: 'chat', input_tokens: i, output_tokens: 1, latency_ms: 2 }, 'llm', 1);
    // Metric points: a gauge and a histogram, each checked against the published event-metric.json.
    const at = new Date().toISOString();
    await send(
      '/ingest/metrics',
      {
        metrics: [
          { metric: 'queue.depth', type: 'gauge', time: at, value: 3, attributes: { queue: 'mail' } },
          { metric: 'http.duration', type: 'histogram', temporality: 'delta', time: at, bounds: [10], bucket_counts: [1, 2], sum: 40, min: 2 },
        ],
      },
      'metric',
      2,
    );
    await send('/ingest/logs', { logs: [{ level: 'info', message: 'another project' }] }, 'log', 1, other.api_key);
    // What it cannot read: a message that is not JSON, and a batch with one bad event among good ones.
    const log = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'python-test' });
    const producer = log.createProducer();
    const now = new Date().toISOString();
    const good = {
      service: 's',
      environment: 'e',
      release: '',
      timestamp: now,
      level: 'info',
      message: 'fine',
      metadata: {},
      trace_id: '',
      span_id: '',
      request_id: '',
      context: '',
    };
    const mixed = encodeBatch('log', project.id, now, newEvents([good, { ...good, level: 'loud' }] as never));
    const poison = { key: null, value: Buffer.from('not json'), headers: { 'dt-project-id': project.id } };
    await producer.send([{ topic: topicNames(p.env.KAFKA_TOPIC_PREFIX).of('log'), messages: [mixed, poison] }]);
    sent.log += 1;
    await producer.disconnect();
    await log.close();
  }, 240_000);
  afterAll(async () => {
    await p?.close();
    rmSync(join(state, '..'), { recursive: true, force: true });
  });

  it('killed after its commit and again mid-stream, counts exactly what was sent, each event once, and dead-letters what it cannot read', {
    timeout: 240_000,
  }, async () => {
    // 1. Dies right after committing its state for the second batch, before Kafka's commit.
    const first = await consume('--batch', '10', '--crash-after-batches', '2');
    expect(first.code, first.stderr).toBe(3);
    // 2. SIGKILLed mid-stream, as soon as it has committed one more batch.
    const second = spawn(PYTHON, args('--batch', '3', '--progress'));
    await new Promise<void>((resolve, reject) => {
      second.stderr.on('data', (d) => String(d).includes('committed batch') && resolve());
      second.on('exit', (code) => reject(new Error(`ended (${code}) before its first batch`)));
    });
    second.kill('SIGKILL');
    // 3. Runs to the end of every partition.
    const r = await consume();
    expect(r.code, r.stderr).toBe(0);
    expect(r.summary.events).toEqual(sent);
    expect(r.summary.events).toEqual({ log: 120 + 2 + 1, error: 2, span: 3, llm: 4, session: 0, metric: 2, score: 0 });
    expect(r.summary.dead_letters).toBe(2); // the message that is not JSON, and the bad event alone
    expect(r.summary.duplicates).toBeGreaterThanOrEqual(2); // the retried request's two events, met twice (and whatever a crash replayed)
    expect(r.summary.other_projects).toBe(1);
    expect(r.summary.messages).toBe(40 + 2 + 2 + 3 + 4 + 1 + 1 + 2); // … the metrics request, one message
    // The letters are on the group's own topic, not on devtrail's.
    const log = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'python-test' });
    const letters = (await log.watermarks(`${group}.dlq`)).reduce((n, w) => n + Number(w.high), 0);
    const devtrails = (await log.watermarks(topicNames(p.env.KAFKA_TOPIC_PREFIX).deadLetterOf('log'))).reduce((n, w) => n + Number(w.high), 0);
    await log.close();
    expect(letters).toBeGreaterThanOrEqual(2);
    expect(devtrails).toBe(0);
  });

  it('resumes from its own state: a later run reads only what came since', { timeout: 120_000 }, async () => {
    await send('/ingest/logs', { logs: [{ level: 'info', message: 'later' }] }, 'log', 1);
    const r = await consume();
    expect(r.code, r.stderr).toBe(0);
    expect(r.summary.events).toEqual(sent);
    expect(r.summary.messages).toBe(40 + 2 + 2 + 3 + 4 + 1 + 1 + 2 + 1);
  });
});
