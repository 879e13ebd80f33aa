import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@clickhouse/client';
import { createKafkaLog } from '@devtrail/message-log';
import { encodeBatch, newEvents, topicNames } from '@devtrail/contract';
import { errorReportSchema, errorToEvent, logBatchSchema, logsToEvents, type EventKind } from '@devtrail/kinds';
import { apiGet, ingest, pipeline, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { adminCall, newProject, roomInMinute } from '../support/admin-api.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../support/stack.ts';
import { logsRequest, resource, str, traceRequest } from '../../libs/otlp/test/requests.ts';

// A project's data policy on the real pipeline (receiver, Kafka, consumers, ClickHouse,
// PostgreSQL, dashboard): scrubbing at the door, retention per kind (reads and TTL), sampling
// by trace, quotas and the spike guard (docs/data.md).
const up = await stackUp();
const DAY = 86_400_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!up)(`data policy end to end${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let receiver: ServiceProcess;
  let dashboard: ServiceProcess;
  const ch = createClient({ url: STACK.clickhouseUrl });
  const admin = (method: string, path: string, body?: unknown) => adminCall(dashboard, p.operatorToken, method, path, body);
  const rows = async <T>(query: string, params: Record<string, unknown> = {}) =>
    (await (await ch.query({ query: query.replaceAll('{db}', `e2e_${p.ns}`), query_params: params, format: 'JSONEachRow' })).json()) as T[];
  const raw = async (table: string, project: string) =>
    Number((await rows<{ n: string }>(`SELECT count() AS n FROM {db}.${table} WHERE project_id = {p:String}`, { p: project }))[0].n);
  const metrics = async () => ((await (await fetch(`${receiver.url}/metrics`, { headers: { accept: 'application/json' } })).json()) as any).receiver;

  beforeAll(async () => {
    p = await pipeline();
    receiver = await p.start('receiver');
    await p.start('consumers');
    dashboard = await p.start('dashboard');
  }, 180_000);
  afterAll(async () => {
    await ch.close();
    await p?.close();
  });

  it('scrubs a metadata password, card numbers and secret headers before Kafka: [Filtered] in Kafka and in ClickHouse', async () => {
    const project = await newProject(dashboard, p.operatorToken, 'scrub');
    const log = {
      level: 'info',
      message: 'paid with 4111-1111-1111-1111',
      metadata: { user: 'ann', password: 'hunter2', request: { headers: { Authorization: 'Bearer abc123' } }, note: 'card 4111 1111 1111 1111', input_tokens: 12 },
    };
    expect((await ingest(receiver, '/ingest/logs', project.key, { logs: [log] })).status).toBe(200);
    const error = {
      error_message: 'payment failed',
      stack_trace: 'Error: payment failed\n    at pay (/srv/pay.js:1:1)',
      context: { session: 'sess-secret', order: 7 },
      breadcrumbs: [{ type: 'http', message: 'POST /pay card=4111111111111111', timestamp: new Date().toISOString() }],
    };
    expect((await ingest(receiver, '/ingest/errors', project.key, error)).status).toBe(200);
    const otlp = logsRequest(
      [
        {
          timeUnixNano: String(Date.now() * 1e6),
          severityNumber: 9,
          body: { stringValue: 'otlp line' },
          attributes: [str('http.request.header.cookie', 'sid=cookie-secret')],
        },
      ],
      resource(str('service.name', 'scrubbed')),
    );
    expect((await ingest(receiver, '/v1/logs', project.key, otlp)).status).toBe(200);

    // Kafka: what any consumer of the topics reads.
    const kafka = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'e2e-scrub-peek' });
    const topics = topicNames(p.env.KAFKA_TOPIC_PREFIX);
    const values: string[] = [];
    const c = kafka.createConsumer({ groupId: `scrub-peek-${p.ns}`, topics: (['log', 'error'] as EventKind[]).map((k) => topics.of(k)) });
    await c.run(async (batch) => {
      for (const m of batch) if (m.headers['dt-project-id'] === project.id) values.push(m.value!.toString('utf8'));
    });
    await expect.poll(() => values.length, { timeout: 15_000 }).toBe(3);
    await c.stop();
    await kafka.close();
    const inKafka = values.join('\n');
    for (const secret of ['hunter2', 'abc123', '4111', 'sess-secret', 'cookie-secret']) expect(inKafka).not.toContain(secret);
    expect(inKafka).toContain('[Filtered]');

    // ClickHouse: the stored rows.
    await expect.poll(() => raw('logs', project.id), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => raw('errors', project.id), { timeout: 15_000 }).toBe(1);
    const [stored] = await rows<{ message: string; metadata: string }>(`SELECT message, metadata FROM {db}.logs WHERE project_id = {p:String} AND message LIKE 'paid%'`, {
      p: project.id,
    });
    expect(JSON.parse(stored.metadata)).toEqual({
      user: 'ann',
      password: '[Filtered]',
      request: { headers: { Authorization: '[Filtered]' } },
      note: 'card [Filtered]',
      input_tokens: 12,
    });
    expect(stored.message).toBe('paid with [Filtered]');
    const [e] = await rows<{ context: string; breadcrumbs: string }>('SELECT context, breadcrumbs FROM {db}.errors WHERE project_id = {p:String}', { p: project.id });
    expect(JSON.parse(e.context)).toEqual({ session: '[Filtered]', order: 7 });
    expect(JSON.parse(e.breadcrumbs)[0].message).toBe('POST /pay card=[Filtered]');
    const [o] = await rows<{ metadata: string }>(`SELECT metadata FROM {db}.logs WHERE project_id = {p:String} AND service = 'scrubbed'`, { p: project.id });
    expect(JSON.parse(o.metadata)['http.request.header.cookie']).toBe('[Filtered]');
  });

  it("applies the project's own rules and can turn the defaults off", async () => {
    const project = await newProject(dashboard, p.operatorToken, 'rules');
    const put = await admin('PUT', `/api/admin/projects/${project.id}/scrubbing`, {
      defaults: false,
      rules: [
        { match: 'email', action: 'mask' },
        { match: 'key', pattern: '^ssn$', action: 'remove' },
      ],
    });
    expect(put.status).toBe(200);
    expect(put.body.effective.scrubbing_defaults).toBe(false);
    expect((await admin('PUT', `/api/admin/projects/${project.id}/scrubbing`, { rules: [{ match: 'regex', pattern: '(a)\\1' }] })).status).toBe(400);
    const r = await ingest(receiver, '/ingest/logs', project.key, {
      logs: [{ level: 'info', message: 'from ann@example.com', metadata: { ssn: '078-05-1120', password: 'kept' } }],
    });
    expect(r.status).toBe(200);
    await expect.poll(() => raw('logs', project.id), { timeout: 15_000 }).toBe(1);
    const [stored] = await rows<{ message: string; metadata: string }>('SELECT message, metadata FROM {db}.logs WHERE project_id = {p:String}', { p: project.id });
    expect(stored.message).toBe('from ***************');
    expect(JSON.parse(stored.metadata)).toEqual({ password: 'kept' });
  });

  it("never returns rows past a project's retention, and TTL removes them (OPTIMIZE … FINAL)", async () => {
    const project = await newProject(dashboard, p.operatorToken, 'retention');
    const set = await admin('PUT', `/api/admin/projects/${project.id}/retention`, { retention_days: { errors: 7, logs: 7 } });
    expect(set.status).toBe(200);
    expect(set.body.effective.retention_days).toMatchObject({
      errors: { days: 7, source: 'project' },
      logs: { days: 7, source: 'project' },
      spans: { days: 30, source: 'default' },
    });

    // Rows that expire 15 s from now: live when written, past retention before the test ends.
    // Retention counts from when the receiver took an event: these old deliveries are messages
    // as a receiver wrote them 7 days ago, still in Kafka; the consumers and ClickHouse are real.
    const expiresAt = Date.now() + 15_000;
    const old = new Date(expiresAt - 7 * DAY).toISOString();
    // Two groups: the stack, not the message, makes the group (docs/fingerprint.md).
    const report = (message: string) => ({ error_message: message, stack_trace: `Error: ${message}\n    at ${message.replace(/\W+/g, '_')} (/a.js:1:1)` });
    const topics = topicNames(p.env.KAFKA_TOPIC_PREFIX);
    const kafka = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'e2e-retention' });
    const producer = kafka.createProducer();
    await producer.connect();
    const oldLog = logsToEvents(logBatchSchema.parse({ logs: [{ level: 'info', message: 'old log', timestamp: old }] }), old);
    const oldError = errorToEvent(errorReportSchema.parse(report('old failure')), old);
    await producer.send([{ topic: topics.of('log'), messages: [encodeBatch('log', project.id, old, newEvents(oldLog), 7)] }]);
    await producer.send([{ topic: topics.of('error'), messages: [encodeBatch('error', project.id, old, newEvents([oldError]), 7)] }]);
    await producer.disconnect();
    await kafka.close();
    expect((await ingest(receiver, '/ingest/errors', project.key, report('new failure'))).status).toBe(200);
    expect((await ingest(receiver, '/ingest/logs', project.key, { logs: [{ level: 'info', message: 'new log' }] })).status).toBe(200);

    await expect.poll(() => raw('errors', project.id), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => raw('logs', project.id), { timeout: 10_000 }).toBe(2);
    expect(Date.now(), 'the old rows were stored before they expired').toBeLessThan(expiresAt);
    expect(await rows('SELECT DISTINCT retention_days FROM {db}.errors WHERE project_id = {p:String}', { p: project.id })).toEqual([{ retention_days: 7 }]);
    const api = (path: string) => apiGet(dashboard, p.operatorToken, `/api/projects/${project.id}${path}`);
    const from = `from=${Date.now() - 8 * DAY}`;
    expect((await api(`/errors?${from}`)).body.errors).toHaveLength(2);

    await sleep(expiresAt - Date.now() + 1500);
    const errors = (await api(`/errors?${from}`)).body.errors;
    expect(errors.map((e: { error_message: string }) => e.error_message)).toEqual(['new failure']);
    expect((await api(`/logs?${from}`)).body.logs.map((l: { message: string }) => l.message)).toEqual(['new log']);
    expect((await api(`/error-groups?${from}`)).body.groups).toHaveLength(1);

    for (const t of ['errors', 'logs', 'error_groups']) await ch.command({ query: `OPTIMIZE TABLE e2e_${p.ns}.${t} FINAL` });
    expect(await raw('errors', project.id)).toBe(1);
    expect(await raw('logs', project.id)).toBe(1);
    expect(await raw('error_groups', project.id)).toBe(1);
  });

  it('samples logs and spans at 10% by trace: whole traces kept, the rest counted', async () => {
    const project = await newProject(dashboard, p.operatorToken, 'sampled');
    expect((await admin('PUT', `/api/admin/projects/${project.id}/sampling`, { sampling: { logs: 0.1, spans: 0.1 } })).status).toBe(200);
    const before = await metrics();
    const traces = Array.from({ length: 400 }, (_, i) => `${i.toString(16).padStart(8, '0')}${'ab'.repeat(12)}`);
    const now = BigInt(Date.now()) * 1_000_000n;
    const spans = traces.flatMap((t) =>
      [1, 2, 3].map((n) => ({
        traceId: t,
        spanId: `${n}`.padStart(16, '0'),
        name: `op ${n}`,
        kind: 2,
        startTimeUnixNano: String(now),
        endTimeUnixNano: String(now + 1_000_000n),
      })),
    );
    expect((await ingest(receiver, '/v1/traces', project.key, traceRequest(spans))).status).toBe(200);
    const logs = traces.flatMap((t) => [1, 2].map((n) => ({ level: 'info', message: `line ${n}`, trace_id: t })));
    for (let i = 0; i < logs.length; i += 400) expect((await ingest(receiver, '/ingest/logs', project.key, { logs: logs.slice(i, i + 400) })).status).toBe(200);

    const after = await metrics();
    const sampledOut = { log: after.sampled_out_events.log - before.sampled_out_events.log, span: after.sampled_out_events.span - before.sampled_out_events.span };
    const keptSpans = 1200 - sampledOut.span;
    const keptLogs = 800 - sampledOut.log;
    await expect.poll(() => raw('spans', project.id), { timeout: 15_000 }).toBe(keptSpans);
    await expect.poll(() => raw('logs', project.id), { timeout: 15_000 }).toBe(keptLogs);
    const spansPerTrace = await rows<{ t: string; n: string }>('SELECT trace_id AS t, count() AS n FROM {db}.spans WHERE project_id = {p:String} GROUP BY t', {
      p: project.id,
    });
    const logsPerTrace = await rows<{ t: string; n: string }>('SELECT trace_id AS t, count() AS n FROM {db}.logs WHERE project_id = {p:String} GROUP BY t', {
      p: project.id,
    });
    expect(
      spansPerTrace.every((r) => Number(r.n) === 3),
      'every kept trace has all its spans',
    ).toBe(true);
    expect(
      logsPerTrace.every((r) => Number(r.n) === 2),
      'and all its logs',
    ).toBe(true);
    expect(logsPerTrace.map((r) => r.t).sort()).toEqual(spansPerTrace.map((r) => r.t).sort());
    expect(spansPerTrace.length / traces.length).toBeGreaterThan(0.04);
    expect(spansPerTrace.length / traces.length).toBeLessThan(0.18);
  });

  it('refuses events over a quota with 429 and Retry-After, counts them, and leaves other projects alone', async () => {
    const limited = await newProject(dashboard, p.operatorToken, 'limited');
    const other = await newProject(dashboard, p.operatorToken, 'other');
    expect((await admin('PUT', `/api/admin/projects/${limited.id}/quotas`, { quotas: { logs: { per_minute: 50 } } })).status).toBe(200);
    await roomInMinute(20);
    const before = await metrics();
    const batch = { logs: Array.from({ length: 10 }, (_, i) => ({ level: 'info', message: `m${i}` })) };
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await ingest(receiver, '/ingest/logs', limited.key, batch));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(Number(answers[5].headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(answers[5].headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(answers[5].body.error).toContain('50 events per minute');
    expect((await ingest(receiver, '/ingest/logs', other.key, batch)).status).toBe(200);
    // OTLP log records count against the same quota, refused in OTLP's terms.
    const otlp = await ingest(receiver, '/v1/logs', limited.key, logsRequest([{ timeUnixNano: String(Date.now() * 1e6), body: { stringValue: 'x' } }]));
    expect(otlp.status).toBe(429);
    expect(otlp.body.message).toContain('Quota exceeded');
    expect(Number(otlp.headers.get('retry-after'))).toBeGreaterThan(0);
    const after = await metrics();
    // Each refusal counted: by its events, or, refused before its body was read (the quota spent already), as a request.
    const refusedEvents = after.rate_limited_events.log.quota_per_minute - before.rate_limited_events.log.quota_per_minute;
    const refusedRequests = after.rate_limited_requests.log.quota_per_minute - before.rate_limited_requests.log.quota_per_minute;
    expect(refusedEvents + 10 * (refusedRequests - 1)).toBe(30); // the OTLP request's one record counted as a request
    expect(refusedRequests, 'once spent, refused before the body is read').toBeGreaterThan(0);
    await expect.poll(() => raw('logs', limited.id), { timeout: 15_000 }).toBe(50);
  });

  it('refuses a spike above K times the recent baseline (spike guard), counted as such', async () => {
    const spiky = await newProject(dashboard, p.operatorToken, 'spiky');
    expect((await admin('PUT', `/api/admin/projects/${spiky.id}/quotas`, { spike_guard: { enabled: true, factor: 3, min_per_minute: 30 } })).status).toBe(200);
    await roomInMinute(20);
    const before = await metrics();
    // The first request of a minute starts reading the baseline (no history: the floor of 30).
    expect((await ingest(receiver, '/ingest/logs', spiky.key, { logs: [{ level: 'info', message: 'warm-up' }] })).status).toBe(200);
    await sleep(500);
    const batch = { logs: Array.from({ length: 10 }, (_, i) => ({ level: 'info', message: `m${i}` })) };
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await ingest(receiver, '/ingest/logs', spiky.key, batch)).status);
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
    const after = await metrics();
    const refusedEvents = after.rate_limited_events.log.spike_guard - before.rate_limited_events.log.spike_guard;
    const refusedRequests = after.rate_limited_requests.log.spike_guard - before.rate_limited_requests.log.spike_guard;
    expect(refusedEvents + 10 * refusedRequests).toBe(30);
  });
});
