import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventKind } from '@devtrail/kinds';
import { ingest, pipeline, ROOT, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../support/stack.ts';

// The Python example (examples/python-consumer: confluent-kafka and jsonschema from PyPI, in
// the venv of deploy/scripts/python-consumer.sh) against the real Kafka and a real receiver:
// it fetches the JSON Schema from the receiver's /schemas, validates every message, and
// counts exactly the events that were sent, a retried request's events once.
const up = await stackUp();
const PYTHON = join(ROOT, '.devtrail/python-consumer-venv/bin/python');
const SCRIPT = join(ROOT, 'examples/python-consumer/consumer.py');

describe.skipIf(!up)(`the Python consumer example${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let receiver: ServiceProcess;
  let project: { id: string; key: string };
  const sent: Record<EventKind, number> = { log: 0, error: 0, span: 0, llm: 0 };
  const send = async (path: string, body: unknown, kind: EventKind, n: number, key: string = project.key, headers: Record<string, string> = {}) => {
    const r = await ingest(receiver, path, key, body, headers);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    if (key === project.key) sent[kind] += n;
  };
  const consume = (...more: string[]) =>
    new Promise<{ code: number; summary: any; stderr: string }>((resolve) => {
      const args = [SCRIPT, '--brokers', STACK.kafkaBrokers.join(','), '--prefix', p.env.KAFKA_TOPIC_PREFIX, '--schemas', `${receiver.url}/schemas`];
      execFile(PYTHON, [...args, '--group', `${p.ns}-python`, '--project', project.id, '--until-end', ...more], { timeout: 90_000 }, (err, stdout, stderr) => {
        const last = stdout.trim().split('\n').pop() ?? '';
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, summary: last.startsWith('{') ? JSON.parse(last) : undefined, stderr });
      });
    });

  beforeAll(async () => {
    if (!existsSync(PYTHON)) throw new Error('the Python example is not installed: run deploy/scripts/python-consumer.sh install (make install does)');
    p = await pipeline();
    receiver = await p.start('receiver');
    const dashboard = await p.start('dashboard');
    const created = JSON.parse((await p.cli(['project', 'create', 'python', '--json'], dashboard)).stdout);
    project = { id: created.project.id, key: created.api_key };
    const other = JSON.parse((await p.cli(['project', 'create', 'other', '--json'], dashboard)).stdout);

    for (const n of [2, 3, 5]) await send('/ingest/logs', { logs: Array.from({ length: n }, (_, i) => ({ level: 'info', message: `m${i}` })) }, 'log', n);
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
    await send('/ingest/logs', { logs: [{ level: 'info', message: 'another project' }] }, 'log', 1, other.api_key);
  }, 180_000);
  afterAll(async () => p?.close());

  it('validates every message with the published JSON Schema and counts exactly what was sent, each event once', async () => {
    const r = await consume('--from', 'earliest');
    expect(r.code, r.stderr).toBe(0);
    expect(r.summary.invalid).toEqual([]);
    expect(r.summary.events).toEqual(sent);
    expect(r.summary.events).toEqual({ log: 12, error: 2, span: 3, llm: 4 });
    expect(r.summary.duplicates).toBe(2); // the retried request's two events, met twice
    expect(r.summary.other_projects).toBe(1);
    expect(r.summary.messages).toBe(4 + 1 + 2 + 3 + 4 + 1);
  });

  it('resumes its group from its commit: a second run reads only what came since', async () => {
    await send('/ingest/logs', { logs: [{ level: 'info', message: 'later' }] }, 'log', 1);
    const r = await consume();
    expect(r.code, r.stderr).toBe(0);
    expect(r.summary.events).toEqual({ log: 1, error: 0, span: 0, llm: 0 });
    expect(r.summary.invalid).toEqual([]);
  });
});
