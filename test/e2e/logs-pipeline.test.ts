import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@clickhouse/client';
import { apiGet, ingest, pipeline, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../support/stack.ts';

// Real processes on real Kafka, ClickHouse endpoint and PostgreSQL.
const up = await stackUp();

describe.skipIf(!up)(`logs end to end: CLI -> receiver -> Kafka -> consumer -> ClickHouse${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let receiver: ServiceProcess;
  let dashboard: ServiceProcess;
  let project: { id: string; key: string };

  beforeAll(async () => {
    p = await pipeline();
    receiver = await p.start('receiver');
    await p.start('consumers');
    dashboard = await p.start('dashboard');
    const out = await p.cli(['project', 'create', 'e2e shop', '--json'], dashboard);
    expect(out.code, out.stderr).toBe(0);
    const created = JSON.parse(out.stdout);
    project = { id: created.project.id, key: created.api_key };
  }, 180_000);
  afterAll(async () => p?.close());

  it('lists the project through the CLI without showing its key', async () => {
    const list = await p.cli(['project', 'list'], dashboard);
    expect(list.stdout).toContain(project.id);
    expect(list.stdout).toContain(project.key.slice(0, 7));
    expect(list.stdout).not.toContain(project.key);
  });

  it('stores a batch of 1,000 logs with every field intact within 5 s of the 200', async () => {
    const logs = Array.from({ length: 1000 }, (_, i) => ({
      level: (['debug', 'info', 'warn', 'error'] as const)[i % 4],
      message: `order ${i} placed <b>"quoted"</b> ünïcödé`,
      timestamp: new Date(Date.UTC(2026, 10, 21, 12, 0, 0, i)).toISOString(),
      metadata: { i, cart: { items: [i, i + 1] }, ok: i % 2 === 0 },
      trace_id: `trace-${i % 10}`,
      span_id: `span-${i}`,
      request_id: `req-${i}`,
      context: 'OrderService',
      ...(i % 2 ? { release: 'v1.2.3-entry' } : {}),
    }));
    const res = await ingest(receiver, '/ingest/logs', project.key, { service: 'checkout', release: 'v1.2.3', logs });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, count: 1000 });
    const acked = Date.now();
    await expect.poll(() => p.count('logs', 'project_id = {p:String}', { p: project.id }), { timeout: 5000, interval: 100 }).toBe(1000);
    const visibleMs = Date.now() - acked;
    expect(visibleMs).toBeLessThan(5000);

    const ch = createClient({ url: STACK.clickhouseUrl });
    const rows = await (
      await ch.query({
        query: `SELECT * FROM ${p.env.CLICKHOUSE_DATABASE}.logs FINAL WHERE project_id = {p:String} ORDER BY timestamp`,
        query_params: { p: project.id },
        format: 'JSONEachRow',
      })
    ).json<Record<string, string>>();
    await ch.close();
    expect(rows).toHaveLength(1000);
    rows.forEach((r, i) => {
      const sent = logs[i];
      expect(r).toMatchObject({
        level: sent.level,
        message: sent.message,
        timestamp: sent.timestamp.replace('T', ' ').replace('Z', ''),
        trace_id: sent.trace_id,
        span_id: sent.span_id,
        request_id: sent.request_id,
        context: 'OrderService',
        release: i % 2 ? 'v1.2.3-entry' : 'v1.2.3',
        service: 'checkout',
        environment: 'production',
      });
      expect(JSON.parse(r.metadata)).toEqual(sent.metadata);
    });
    // And through the read API, newest first.
    const api = await apiGet(dashboard, p.operatorToken, `/api/projects/${project.id}/logs?from=2026-11-21T00:00:00Z&to=2026-11-22T00:00:00Z&limit=5`);
    expect(api.status).toBe(200);
    expect(api.body.logs[0]).toMatchObject({ message: logs[999].message, metadata: logs[999].metadata, timestamp: logs[999].timestamp });
    expect(api.body.next_cursor).toEqual(expect.any(String));
  });

  it('stores the largest request, 1,000 logs in almost 5 MB, as one Kafka message (topic and broker limits hold it)', async () => {
    const big = 'x'.repeat(5000);
    const logs = Array.from({ length: 1000 }, (_, i) => ({ level: 'info', message: `big-${i} ${big}`, metadata: { i } }));
    const body = JSON.stringify({ service: 'big', logs });
    expect(body.length).toBeGreaterThan(5_000_000);
    expect(body.length).toBeLessThan(5 * 1024 * 1024);
    const res = await ingest(receiver, '/ingest/logs', project.key, JSON.parse(body));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expect.poll(() => p.count('logs', "project_id = {p:String} AND service = 'big'", { p: project.id }), { timeout: 10_000, interval: 200 }).toBe(1000);
  });

  it('applies the service and environment defaults', async () => {
    const res = await ingest(receiver, '/ingest/logs', project.key, { logs: [{ level: 'info', message: 'defaults-e2e' }] });
    expect(res.status).toBe(200);
    await expect
      .poll(() => p.count('logs', "message = 'defaults-e2e' AND service = 'unknown' AND environment = 'production' AND release = ''"), { timeout: 5000 })
      .toBe(1);
  });
});
