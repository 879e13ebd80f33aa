import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaLog } from '@devtrail/message-log';
import { decodeMessage, topicNames } from '@devtrail/contract';
import type { EventKind } from '@devtrail/kinds';
import { apiGet, ingest, pipeline, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../support/stack.ts';

// Every kind: on its Kafka topic with every field and readable through the
// read API within 5 s; error grouping.
const up = await stackUp();

describe.skipIf(!up)(`every telemetry kind end to end${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let receiver: ServiceProcess;
  let dashboard: ServiceProcess;
  let project: { id: string; key: string };
  const api = (path: string) => apiGet(dashboard, p.operatorToken, `/api/projects/${project.id}${path}`);

  beforeAll(async () => {
    p = await pipeline();
    receiver = await p.start('receiver');
    await p.start('consumers');
    dashboard = await p.start('dashboard');
    const out = await p.cli(['project', 'create', 'kinds', '--json'], dashboard);
    const created = JSON.parse(out.stdout);
    project = { id: created.project.id, key: created.api_key };
  }, 180_000);
  afterAll(async () => p?.close());

  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const error = {
    service: 'api',
    environment: 'staging',
    release: 'r9',
    error_message: 'Order 1234 not found',
    stack_trace: 'NotFoundError: Order 1234 not found\n    at loadOrder (/srv/app/src/orders.js:40:11)\n    at handler (/srv/app/src/routes.js:12:3)',
    severity: 'high',
    context: { order: 1234 },
    trace_id: traceId,
    user_id: 'user-7',
    breadcrumbs: [{ type: 'http', message: 'GET /orders/1234', timestamp: '2026-11-21T10:00:00.000Z' }],
  };
  const span = {
    service: 'api',
    trace_id: traceId,
    span_id: '00f067aa0ba902b7',
    operation: 'GET /orders/:id',
    start_time: new Date().toISOString(),
    duration_ms: 41.7,
    status: 'error',
    metadata: { 'http.status_code': 500 },
  };
  const child = { ...span, span_id: '00f067aa0ba902b8', parent_span_id: '00f067aa0ba902b7', operation: 'SELECT orders', duration_ms: 12, status: 'ok', metadata: {} };
  const llm = {
    service: 'bot',
    model: 'gpt-4o-mini',
    provider: 'openai',
    operation: 'chat.completions',
    input_tokens: 1200,
    output_tokens: 300,
    cost_usd: 0.0042,
    latency_ms: 950.4,
    metadata: { prompt: 'v3' },
  };

  it('answers each kind with its documented success body', async () => {
    const e = await ingest(receiver, '/ingest/errors', project.key, error);
    expect(e.status).toBe(200);
    expect(e.body).toEqual({ ok: true, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // Same error, other id and line: the same group.
    const e2 = await ingest(receiver, '/ingest/errors', project.key, {
      ...error,
      error_message: 'Order 98 not found',
      stack_trace: error.stack_trace.replace(':40:11', ':44:9').replace(/1234/g, '98'),
    });
    expect(e2.body.fingerprint).toBe(e.body.fingerprint);
    expect((await ingest(receiver, '/ingest/traces', project.key, span)).body).toEqual({ ok: true });
    expect((await ingest(receiver, '/ingest/traces', project.key, child)).body).toEqual({ ok: true });
    expect((await ingest(receiver, '/ingest/llm', project.key, llm)).body).toEqual({ ok: true });
    expect((await ingest(receiver, '/ingest/logs', project.key, { logs: [{ level: 'error', message: 'with trace', trace_id: traceId }] })).body).toEqual({
      ok: true,
      count: 1,
    });
  });

  it('puts every kind on its own Kafka topic with every field', async () => {
    const log = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'e2e-peek' });
    const topics = topicNames(p.env.KAFKA_TOPIC_PREFIX);
    const seen: Record<string, any[]> = {};
    const c = log.createConsumer({ groupId: `peek-${p.ns}`, topics: (['log', 'error', 'span', 'llm'] as EventKind[]).map((k) => topics.of(k)) });
    await c.run(async (batch) => {
      for (const m of batch) {
        const kind = m.headers['dt-kind'] as EventKind;
        for (const env of decodeMessage(kind, m).events) (seen[kind] ??= []).push({ env, headers: m.headers, topic: m.topic });
      }
    });
    await expect.poll(() => Object.values(seen).flat().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(6);
    await c.stop();
    await log.close();
    expect(seen.error).toHaveLength(2);
    expect(seen.error[0].topic).toBe(topics.of('error'));
    expect(seen.error[0].env.data).toMatchObject({ ...error, severity: 'high', error_type: 'NotFoundError' });
    // One message per request (schema version 2): an error report is a batch of one.
    expect(seen.error[0].headers).toMatchObject({
      'dt-schema-version': '2',
      'dt-kind': 'error',
      'dt-project-id': project.id,
      'dt-event-count': '1',
      'content-type': 'application/json',
    });
    expect(seen.span.map((s) => s.env.data)).toContainEqual({ ...span, environment: 'production', release: '', parent_span_id: '', duration_ms: 42 });
    expect(seen.llm[0].env.data).toMatchObject({ ...llm, latency_ms: 950, environment: 'production' });
    expect(seen.log[0].env.data).toMatchObject({ message: 'with trace', trace_id: traceId });
    // A log request nothing had to change goes as sent (version 3), its facts in headers.
    expect(seen.log[0].headers).toMatchObject({ 'dt-schema-version': '3', 'dt-kind': 'log', 'dt-project-id': project.id, 'dt-event-count': '1' });
    expect(seen.log[0].headers['dt-scrub']).toMatch(/^unchanged rules=/);
  });

  it('makes every kind readable through the read API within 5 s, fields intact', async () => {
    // Both errors, not just the group: the two may land in different batches of the errors sink.
    await expect.poll(async () => (await api('/error-groups')).body.groups?.map((g: { count: number }) => g.count), { timeout: 5000 }).toEqual([2]);
    const groups = (await api('/error-groups')).body.groups;
    expect(groups[0]).toMatchObject({ count: 2, max_severity: 'high', latest: { error_type: 'NotFoundError', service: 'api', release: 'r9' } });
    expect(Date.parse(groups[0].first_seen)).toBeLessThanOrEqual(Date.parse(groups[0].last_seen));
    const group = await api(`/error-groups/${groups[0].fingerprint}`);
    expect(group.body.recent).toHaveLength(2);
    expect(group.body.recent.map((r: any) => r.error_message).sort()).toEqual(['Order 1234 not found', 'Order 98 not found']);
    expect(group.body.recent[1]).toMatchObject({ context: expect.any(Object), breadcrumbs: error.breadcrumbs, user_id: 'user-7', trace_id: traceId });
    const errs = await api(`/errors?fingerprint=${groups[0].fingerprint}`);
    expect(errs.body.errors).toHaveLength(2);

    await expect.poll(async () => (await api(`/traces/${traceId}`)).body.spans?.length, { timeout: 5000 }).toBe(2);
    const trace = (await api(`/traces/${traceId}`)).body.spans;
    expect(trace.find((s: any) => s.span_id === span.span_id)).toMatchObject({
      operation: span.operation,
      duration_ms: 42,
      status: 'error',
      parent_span_id: '',
      metadata: span.metadata,
    });
    expect(trace.find((s: any) => s.span_id === child.span_id)).toMatchObject({ parent_span_id: span.span_id });
    const roots = (await api('/traces')).body.traces;
    expect(roots.map((r: any) => r.span_id)).toEqual([span.span_id]);

    await expect.poll(async () => (await api('/llm-usage')).body.usage?.length, { timeout: 5000 }).toBe(1);
    expect((await api('/llm-usage')).body.usage[0]).toMatchObject({
      model: 'gpt-4o-mini',
      provider: 'openai',
      service: 'bot',
      calls: 1,
      input_tokens: 1200,
      output_tokens: 300,
      cost_usd: 0.0042,
      latency_p50_ms: 950,
    });

    await expect.poll(async () => (await api(`/logs?trace_id=${traceId}`)).body.logs?.map((l: any) => l.message), { timeout: 5000 }).toEqual(['with trace']);
    const rate = (await api('/ingestion')).body.per_minute;
    expect(rate.map((r: any) => r.kind).sort()).toEqual(['error', 'llm', 'log', 'span']);
  });

  it('keeps projects apart and answers 401/404 on the read API', async () => {
    const other = JSON.parse((await p.cli(['project', 'create', 'other', '--json'], dashboard)).stdout);
    expect((await apiGet(dashboard, p.operatorToken, `/api/projects/${other.project.id}/logs`)).body.logs).toEqual([]);
    expect((await apiGet(dashboard, 'wrong-token', `/api/projects/${project.id}/logs`)).status).toBe(401);
    expect((await apiGet(dashboard, p.operatorToken, `/api/projects/not-a-uuid/logs`)).status).toBe(400);
    expect((await apiGet(dashboard, p.operatorToken, `/api/projects/${project.id}/traces/nope`)).status).toBe(404);
  });
});
