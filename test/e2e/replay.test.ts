import { createClient } from '@clickhouse/client';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeMessage, topicNames } from '@devtrail/contract';
import { KINDS, type EventKind } from '@devtrail/kinds';
import { createKafkaLog } from '@devtrail/message-log';
import { apiGet, ingest, pipeline, runCli, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../support/stack.ts';

// `devtrail replay` against the real pipeline: a ClickHouse table emptied by hand is rebuilt
// from Kafka and the read API answers exactly as before, twice in a row; a stopped consumer
// group is moved to a point in time; a range Kafka no longer retains is refused clearly.
const up = await stackUp();

describe.skipIf(!up)(`devtrail replay${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let receiver: ServiceProcess;
  let dashboard: ServiceProcess;
  let project: { id: string; key: string };
  const ch = createClient({ url: STACK.clickhouseUrl });
  const traceId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
  const sent: Record<EventKind, number> = { log: 0, error: 0, span: 0, llm: 0, session: 0, metric: 0, score: 0 };
  const api = async (path: string) => {
    const r = await apiGet(dashboard, p.operatorToken, `/api/projects/${project.id}${path}`);
    if (r.status === 404 && path.startsWith('/traces/')) return { spans: [] }; // a trace without spans is not found
    expect(r.status, path).toBe(200);
    return r.body;
  };
  /** What the read API answers for every kind; lists in a fixed order (rows of equal time have none of their own). */
  const reads = async () => {
    const sorted = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).sort();
    return {
      logs: sorted((await api('/logs?limit=1000')).logs),
      errors: sorted((await api('/errors?limit=1000')).errors),
      groups: sorted((await api('/error-groups')).groups),
      spans: sorted((await api(`/traces/${traceId}`)).spans),
      llm: sorted((await api('/llm-usage')).usage),
      ingestion: sorted((await api('/ingestion')).per_minute),
    };
  };
  const replay = (args: string[]) => runCli(['replay', ...args], p.env);
  const send = async (path: string, body: unknown, kind: EventKind, n = 1) => {
    const r = await ingest(receiver, path, project.key, body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    sent[kind] += n;
  };
  let before: Awaited<ReturnType<typeof reads>>;
  let sentFrom: string;

  beforeAll(async () => {
    p = await pipeline();
    receiver = await p.start('receiver');
    await p.start('consumers');
    dashboard = await p.start('dashboard');
    const created = JSON.parse((await p.cli(['project', 'create', 'replay', '--json'], dashboard)).stdout);
    project = { id: created.project.id, key: created.api_key };
    sentFrom = new Date().toISOString();
    for (const n of [3, 1, 4])
      await send('/ingest/logs', { service: 'shop', logs: Array.from({ length: n }, (_, i) => ({ level: 'info', message: `batch of ${n} #${i}` })) }, 'log', n);
    for (const id of [7, 8])
      await send('/ingest/errors', { error_message: `Order ${id} not found`, stack_trace: 'NotFound: x\n    at f (/srv/a.js:1:1)', severity: 'high' }, 'error');
    await send('/ingest/errors', { error_message: 'disk full', stack_trace: 'IOError: disk full\n    at w (/srv/b.js:2:2)' }, 'error');
    for (const s of ['00f067aa0ba902b7', '00f067aa0ba902b8', '00f067aa0ba902b9'])
      await send('/ingest/traces', { trace_id: traceId, span_id: s, operation: `op ${s}`, start_time: new Date().toISOString(), duration_ms: 5 }, 'span');
    for (const tokens of [10, 20])
      await send('/ingest/llm', { model: 'm', provider: 'p', operation: 'chat', input_tokens: tokens, output_tokens: 1, latency_ms: 9, cost_usd: 0.5 }, 'llm');
    // Everything sent is readable before the snapshot is taken.
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 300))) {
      const r = await reads();
      if (r.logs.length === 8 && r.errors.length === 3 && r.spans.length === 3 && r.llm.length === 1) break;
    }
    before = await reads();
    expect(before.groups).toHaveLength(2);
    expect(before.llm).toHaveLength(1);
  }, 180_000);
  afterAll(async () => {
    await p?.close();
    await ch.close();
  });

  it('on a dry run, says how many events it would re-write, and writes nothing', { timeout: 120_000 }, async () => {
    for (const kind of ['log', 'error', 'span', 'llm'] as EventKind[]) {
      const r = await replay([kind, '--dry-run', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ kind, action: 'rebuild', dry_run: true, events: sent[kind], written: 0, unreadable: 0, target: KINDS[kind].name });
    }
    const human = await replay(['logs', '--dry-run']);
    expect(human.stdout).toContain(`would re-write ${sent.log} of ${sent.log} events (3 messages of ${p.env.KAFKA_TOPIC_PREFIX}logs`);
    expect(human.stderr).toMatch(/replay .*logs: 3\/3 messages \(100%\), 8 events/);
  });

  it('rebuilds every table emptied by hand: the read API answers as before, and the same after a second replay', { timeout: 120_000 }, async () => {
    for (const kind of ['log', 'error', 'span', 'llm'] as EventKind[]) await ch.command({ query: `TRUNCATE TABLE ${p.env.CLICKHOUSE_DATABASE}.${KINDS[kind].name}` });
    const emptied = await reads();
    expect([emptied.logs, emptied.errors, emptied.spans, emptied.llm]).toEqual([[], [], [], []]);
    for (const round of [1, 2]) {
      for (const kind of ['log', 'error', 'span', 'llm'] as EventKind[]) {
        const r = await replay([kind, '--json']);
        expect(r.code, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout), `round ${round}`).toMatchObject({ kind, dry_run: false, events: sent[kind], written: sent[kind] });
      }
      expect(await reads(), `after replay ${round}`).toEqual(before);
    }
  });

  it('empties the errors received in a range, error groups with them, and a replay of the range writes them back', { timeout: 120_000 }, async () => {
    const to = new Date().toISOString();
    const dry = await runCli(['empty', 'errors', '--from', sentFrom, '--to', to, '--dry-run', '--json'], p.env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ kind: 'error', table: 'errors', column: 'timestamp', dry_run: true, rows: sent.error });
    const emptied = await runCli(['empty', 'errors', '--from', sentFrom, '--to', to, '--json'], p.env);
    expect(emptied.code, emptied.stderr).toBe(0);
    expect(JSON.parse(emptied.stdout)).toMatchObject({ rows: sent.error, groups_rebuilt: 1 });
    const after = await reads();
    expect([after.errors, after.groups]).toEqual([[], []]); // no stale group counts left behind
    const r = await replay(['errors', '--from', sentFrom, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const back = await reads();
    expect([back.errors, back.groups]).toEqual([before.errors, before.groups]);
  });

  it('needs PostgreSQL only while the deletions topic does not exist, and then names it when it is down; a dry run goes on', { timeout: 120_000 }, async () => {
    // A deployment whose dashboard has not yet run this version: the kinds' topics, no deletions topic.
    const prefix = `${p.env.KAFKA_TOPIC_PREFIX}old.`;
    const log = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'replay-old' });
    await log.ensureTopics(topicNames(prefix).all(), 1);
    await log.close();
    const env = { ...p.env, KAFKA_TOPIC_PREFIX: prefix, DATABASE_URL: 'postgres://devtrail:secret@127.0.0.1:1/devtrail' };
    const rebuild = await runCli(['replay', 'logs'], env);
    expect(rebuild.code).toBe(1);
    expect(rebuild.stderr).toContain('PostgreSQL at 127.0.0.1:1 (DATABASE_URL)');
    expect(rebuild.stderr).not.toContain('secret');
    const dry = await runCli(['replay', 'logs', '--dry-run', '--json'], env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, events: 0, discarded: 0 });
    expect(dry.stderr).toContain('dry run without the deletions');
  });

  it('moves a stopped consumer group to a point in time; its consumer then reads from there; not while it runs', { timeout: 120_000 }, async () => {
    await new Promise((r) => setTimeout(r, 50));
    const t = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 50));
    await send(
      '/ingest/logs',
      {
        logs: [
          { level: 'warn', message: 'after t, 1' },
          { level: 'warn', message: 'after t, 2' },
        ],
      },
      'log',
      2,
    );
    const group = `${p.ns}-backfill`;
    const dry = await replay(['log', '--group', group, '--from', t, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ action: 'move-group', target: group, messages: 1, events: 2 });
    const moved = await replay(['log', '--group', group, '--from', t]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain(`moved consumer group ${group}`);

    const log = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'replay-test' });
    const c = log.createConsumer({ groupId: group, topics: [topicNames(p.env.KAFKA_TOPIC_PREFIX).of('log')] });
    const messages: string[] = [];
    await c.run(async (batch) => void messages.push(...batch.flatMap((m) => decodeMessage('log', m).events.map((e) => e.data.message))));
    await expect.poll(() => messages.length, { timeout: 30_000 }).toBe(2);
    const busy = await replay(['log', '--group', group, '--from', 'earliest']);
    await c.stop();
    await log.close();
    expect(messages.sort()).toEqual(['after t, 1', 'after t, 2']);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain(`consumer group ${group} has running members`);
  });

  it('refuses clearly a range whose start Kafka no longer retains, and replays what is left from earliest', { timeout: 60_000 }, async () => {
    const topic = topicNames(p.env.KAFKA_TOPIC_PREFIX).of('log');
    const admin = new Kafka({ brokers: STACK.kafkaBrokers, clientId: 'replay-retention', logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    // What retention does: the oldest messages of every partition deleted (all but the last of partitions that have two or more).
    const marks = await admin.fetchTopicOffsets(topic);
    await admin.deleteTopicRecords({
      topic,
      partitions: marks.filter((m) => Number(m.high) > 1).map((m) => ({ partition: m.partition, offset: String(Number(m.high) - 1) })),
    });
    await admin.disconnect();
    const byTime = await replay(['logs', '--from', '1h']);
    expect(byTime.code).toBe(1);
    expect(byTime.stderr).toMatch(/Kafka no longer retains the start of this range of .*logs:\n {2}partition \d: its oldest retained message was appended at/);
    expect(byTime.stderr).toContain('--from earliest');
    const byOffset = await replay(['logs', '--from', '0']);
    expect(byOffset.code).toBe(1);
    expect(byOffset.stderr).toMatch(/partition \d: offsets 0 to \d+ are gone \(the oldest retained is \d+\)/);
    const left = await replay(['logs', '--from', 'earliest', '--dry-run', '--json']);
    expect(left.code, left.stderr).toBe(0);
    expect(JSON.parse(left.stdout).messages).toBe(marks.filter((m) => Number(m.high) > 0).length);
  });
});
