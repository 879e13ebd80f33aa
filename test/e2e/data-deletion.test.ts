import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventConsumer } from '@devtrail/consumer-kit';
import { topicNames, type DeletionEvent } from '@devtrail/contract';
import { ROOTS_TABLE } from '@devtrail/kinds';
import { createKafkaLog } from '@devtrail/message-log';
import { ingest, pipeline, runCli, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { adminCall, newProject } from '../support/admin-api.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../support/stack.ts';

// Deletion on the real pipeline (docs/data.md#deletion): a project's deletion leaves none of
// its rows in any table, and its events still in Kafka never come back; an operator's
// deletion of one service's events leaves the rest, with the error groups rebuilt; a deletion
// is published on the deletions topic, and a replay never writes back what it covers (it says
// what it left out and why), while a consumer of the kit hears of it and never gets those events.
const up = await stackUp();
const TABLES = ['logs', 'errors', 'spans', 'llm', 'error_groups'];

describe.skipIf(!up)(`deletion end to end${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let receiver: ServiceProcess;
  let consumers: ServiceProcess;
  let dashboard: ServiceProcess;
  const admin = (method: string, path: string, body?: unknown) => adminCall(dashboard, p.operatorToken, method, path, body);
  const counts = async (project: string, where = '1', tables = TABLES) => {
    const out: Record<string, number> = {};
    for (const t of tables) out[t] = await p.count(t, `project_id = {p:String} AND ${where}`, { p: project });
    return out;
  };
  const traceId = 'aa'.repeat(16);
  /** One event of every kind, for a service. */
  async function everyKind(key: string, service: string) {
    const now = new Date().toISOString();
    const sent = [
      await ingest(receiver, '/ingest/logs', key, { service, logs: [{ level: 'info', message: `hello from ${service}`, trace_id: traceId }] }),
      await ingest(receiver, '/ingest/errors', key, { service, error_message: `boom in ${service}`, stack_trace: `Error: boom\n    at ${service} (/a.js:1:1)` }),
      await ingest(receiver, '/ingest/traces', key, {
        service,
        trace_id: traceId,
        span_id: `${service.length}`.padStart(16, '0'),
        operation: 'op',
        start_time: now,
        duration_ms: 3,
      }),
      await ingest(receiver, '/ingest/llm', key, {
        service,
        model: 'gpt-4o-mini',
        provider: 'openai',
        operation: 'chat.completions',
        input_tokens: 3,
        output_tokens: 4,
        cost_usd: 0.001,
        latency_ms: 10,
      }),
    ];
    expect(sent.map((s) => s.status)).toEqual([200, 200, 200, 200]);
  }
  const finished = async (deletionId: string) => {
    let last: any;
    await expect
      .poll(
        async () => {
          last = (await admin('GET', `/api/admin/deletions/${deletionId}`)).body.deletion;
          return last.status;
        },
        { timeout: 30_000, interval: 300 },
      )
      .toBe('done');
    return last;
  };

  beforeAll(async () => {
    p = await pipeline({ DELETION_GRACE_MS: '1500' });
    receiver = await p.start('receiver');
    consumers = await p.start('consumers');
    dashboard = await p.start('dashboard');
  }, 180_000);
  afterAll(async () => p?.close());

  it("deletes a project's events from every table, and its events still in Kafka never come back", async () => {
    const doomed = await newProject(dashboard, p.operatorToken, 'doomed');
    const kept = await newProject(dashboard, p.operatorToken, 'kept');
    await everyKind(doomed.key, 'api');
    await everyKind(kept.key, 'api');
    await expect.poll(() => counts(doomed.id), { timeout: 15_000 }).toEqual({ logs: 1, errors: 1, spans: 1, llm: 1, error_groups: 1 });
    await expect.poll(() => counts(kept.id), { timeout: 15_000 }).toEqual({ logs: 1, errors: 1, spans: 1, llm: 1, error_groups: 1 });

    // More of its events wait in Kafka while no consumer runs.
    await p.stop(consumers);
    await everyKind(doomed.key, 'worker');
    const del = await admin('DELETE', `/api/admin/projects/${doomed.id}`);
    expect(del.status).toBe(202);
    expect(del.body.deletion).toMatchObject({ project_id: doomed.id, project_name: 'doomed', reason: 'project' });
    // The key stops working at once (as a revoked one: every receiver hears PostgreSQL's NOTIFY).
    let lateAccepted = 0; // answered before the NOTIFY arrived: in Kafka too, and to be discarded
    await expect
      .poll(
        async () => {
          const r = await ingest(receiver, '/ingest/logs', doomed.key, { logs: [{ level: 'info', message: 'late' }] });
          if (r.status === 200) lateAccepted++;
          return r.status;
        },
        { timeout: 2000, interval: 50 },
      )
      .toBe(401);
    expect((await admin('GET', `/api/admin/projects/${doomed.id}`)).status).toBe(404);

    consumers = await p.start('consumers');
    const done = await finished(del.body.deletion.id);
    expect(done.percent).toBe(100);
    // Every table, the trace roots kept beside the spans (libs/kinds/src/span/roots.ts), and the
    // sessions, metrics and scores, which go with their project (docs/topics.md, "Deletions").
    expect(Object.keys(done.tables).sort()).toEqual([...TABLES, ROOTS_TABLE, 'sessions', 'metrics', 'scores'].sort());
    // The consumers read the rest of its events from Kafka, and wrote none of them.
    await expect
      .poll(async () => {
        const m = (await (await fetch(`${consumers.url}/metrics`, { headers: { accept: 'application/json' } })).json()) as { consumers: Array<{ discarded: number }> };
        return m.consumers.reduce((n, c) => n + c.discarded, 0);
      })
      .toBe(4 + lateAccepted);
    expect(await counts(doomed.id)).toEqual({ logs: 0, errors: 0, spans: 0, llm: 0, error_groups: 0 });
    expect(await counts(kept.id)).toEqual({ logs: 1, errors: 1, spans: 1, llm: 1, error_groups: 1 });
    const listed = (await admin('GET', '/api/admin/deletions')).body.deletions;
    expect(listed.map((d: { id: string }) => d.id)).toContain(del.body.deletion.id);
    // Nor did any consumer set them aside: the alerts group keeps nothing of a deleted project either.
    await new Promise((r) => setTimeout(r, 1500));
    const all = (await (await fetch(`${consumers.url}/metrics`, { headers: { accept: 'application/json' } })).json()) as {
      consumers: Array<{ name: string; deadLettered: number }>;
    };
    expect(all.consumers.some((c) => c.name.startsWith('alerts-'))).toBe(true);
    expect(Object.fromEntries(all.consumers.map((c) => [c.name, c.deadLettered]))).toEqual(Object.fromEntries(all.consumers.map((c) => [c.name, 0])));
  });

  it("deletes one service's events of a project, keeps the others, and rebuilds the error groups", async () => {
    const project = await newProject(dashboard, p.operatorToken, 'services');
    await everyKind(project.key, 'checkout');
    await everyKind(project.key, 'search');
    await expect.poll(() => counts(project.id), { timeout: 15_000 }).toEqual({ logs: 2, errors: 2, spans: 2, llm: 2, error_groups: 2 });
    const del = await admin('POST', `/api/admin/projects/${project.id}/deletions`, { service: 'checkout' });
    expect(del.status).toBe(202);
    expect(del.body.deletion).toMatchObject({ reason: 'events', filter: { service: 'checkout' }, status: 'pending' });
    await finished(del.body.deletion.id);
    const kinds = TABLES.filter((t) => t !== 'error_groups');
    expect(await counts(project.id, "service = 'checkout'", kinds)).toEqual({ logs: 0, errors: 0, spans: 0, llm: 0 });
    expect(await counts(project.id)).toEqual({ logs: 1, errors: 1, spans: 1, llm: 1, error_groups: 1 });
    // error_groups has no service column: the group left is that of the event left.
    const groups = await (await fetch(`${dashboard.url}/api/projects/${project.id}/error-groups`, { headers: { authorization: `Bearer ${p.operatorToken}` } })).json();
    expect((groups as any).groups.map((g: any) => [g.latest.service, g.count])).toEqual([['search', 1]]);
    const listed = (await admin('GET', `/api/admin/projects/${project.id}/deletions`)).body.deletions;
    expect(listed[0]).toMatchObject({ id: del.body.deletion.id, status: 'done', percent: 100 });
  });

  it('is published: a replay leaves out and names what it covers; a kit consumer hears of it and never gets those events', { timeout: 120_000 }, async () => {
    const project = await newProject(dashboard, p.operatorToken, 'replayed');
    const topics = topicNames(p.env.KAFKA_TOPIC_PREFIX);
    const log = createKafkaLog({ brokers: STACK.kafkaBrokers, clientId: 'deletion-kit' });
    const kit = (group: string) => {
      const heard: DeletionEvent[] = [];
      const got: string[] = [];
      const c = createEventConsumer({
        kind: 'llm',
        topics,
        name: group,
        groupId: `${p.ns}-${group}`,
        messageLog: log,
        batchMs: 100,
        async write(events) {
          got.push(...events.filter((e) => e.project_id === project.id).map((e) => e.data.service));
        },
        onDeletion: async (d) => void heard.push(d),
      });
      return { c, heard, got };
    };
    const before = kit('kit-before');
    await before.c.start();
    const llm = (service: string) =>
      ingest(receiver, '/ingest/llm', project.key, { service, model: 'm', provider: 'p', operation: 'chat', input_tokens: 1, output_tokens: 1, latency_ms: 1 });
    for (const service of ['chat', 'chat', 'chat', 'search', 'search']) expect((await llm(service)).status).toBe(200);
    // Scores are part of the LLM data (docs/data.md#retention): one per service, and a member's
    // annotation, which the dashboard publishes to the scores topic itself.
    for (const service of ['chat', 'search'])
      expect((await ingest(receiver, '/ingest/scores', project.key, { service, name: 'helpfulness', value: 0.5, session_id: 's1' })).status).toBe(200);
    const annotated = await fetch(`${dashboard.url}/api/projects/${project.id}/scores`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.operatorToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'correctness', value: true, comment: 'checked', session_id: 's1' }),
    });
    expect(annotated.status).toBe(200);
    await expect.poll(() => counts(project.id, '1', ['llm', 'scores']), { timeout: 15_000 }).toEqual({ llm: 5, scores: 3 });
    expect(await counts(project.id, "source = 'annotation' AND author = 'operator'", ['scores'])).toEqual({ scores: 1 });
    const del = await admin('POST', `/api/admin/projects/${project.id}/deletions`, { service: 'chat', kinds: ['llm'] });
    expect(del.status).toBe(202);
    await finished(del.body.deletion.id);
    expect(await counts(project.id, "service = 'chat'", ['llm', 'scores'])).toEqual({ llm: 0, scores: 0 });
    expect(await counts(project.id, "service != 'chat'", ['scores'])).toEqual({ scores: 2 });

    // Replay re-reads the whole llm topic: the deleted events stay deleted, and the report says which deletion left them out.
    const r = await runCli(['replay', 'llm', '--json'], p.env);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.discarded_by).toContainEqual({
      deletion_id: del.body.deletion.id,
      reason: 'events',
      project_id: project.id,
      filter: { kinds: ['llm'], service: 'chat', from: null, to: null, time: 'event' },
      requested_at: del.body.deletion.requested_at,
      events: 3,
    });
    // The project deleted by the first test: its events in the topic are left out too, and counted.
    expect(report.discarded_by.some((d: { reason: string }) => d.reason === 'project')).toBe(true);
    expect(report.written).toBe(report.events - report.discarded);
    expect(await counts(project.id, "service = 'chat'", ['llm'])).toEqual({ llm: 0 });
    expect(await counts(project.id, "service = 'search'", ['llm'])).toEqual({ llm: 2 });
    const usage = await (await fetch(`${dashboard.url}/api/projects/${project.id}/llm-usage`, { headers: { authorization: `Bearer ${p.operatorToken}` } })).json();
    expect(JSON.stringify(usage)).not.toContain('"chat"');
    const human = await runCli(['replay', 'llm', '--dry-run'], p.env);
    expect(human.stdout).toContain(`3 by deletion ${del.body.deletion.id} of project ${project.id} (events deleted, kinds llm, service "chat"`);

    // The kit: the running consumer heard of the deletion; one started afterwards never gets the deleted events.
    await expect.poll(() => before.heard.map((d) => d.deletion_id), { timeout: 15_000 }).toContain(del.body.deletion.id);
    expect(before.heard.find((d) => d.deletion_id === del.body.deletion.id)).toMatchObject({ project_id: project.id, reason: 'events', kinds: ['llm'], service: 'chat' });
    const after = kit('kit-after');
    await after.c.start();
    await expect.poll(() => after.got.length, { timeout: 30_000 }).toBe(2);
    expect(after.got).toEqual(['search', 'search']);
    expect(after.c.stats().discarded).toBeGreaterThanOrEqual(3);
    expect(after.heard.map((d) => d.deletion_id)).toContain(del.body.deletion.id);
    await before.c.stop();
    await after.c.stop();
    await log.close();
  });

  it('deletes nothing for an empty time range', async () => {
    const project = await newProject(dashboard, p.operatorToken, 'ranges');
    await everyKind(project.key, 'api');
    await expect.poll(() => counts(project.id), { timeout: 15_000 }).toEqual({ logs: 1, errors: 1, spans: 1, llm: 1, error_groups: 1 });
    const r = await admin('POST', `/api/admin/projects/${project.id}/deletions`, { from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' });
    expect(r.status).toBe(202);
    const done = await finished(r.body.deletion.id);
    expect(Object.values(done.tables).every((t: any) => t.rows_at_start === 0)).toBe(true);
    expect(await counts(project.id)).toEqual({ logs: 1, errors: 1, spans: 1, llm: 1, error_groups: 1 });
  });
});
