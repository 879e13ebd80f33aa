import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest, pipeline, type Pipeline, type ServiceProcess } from '../support/processes.ts';
import { NO_STACK_REASON, stackUp } from '../support/stack.ts';

// Two receiver processes share revocations and the rate limit.
const up = await stackUp();
const batch = { logs: [{ level: 'info', message: 'replica' }] };

describe.skipIf(!up)(`two receiver replicas${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  let p: Pipeline;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let dashboard: ServiceProcess;

  beforeAll(async () => {
    p = await pipeline();
    a = await p.start('receiver');
    b = await p.start('receiver');
    dashboard = await p.start('dashboard');
  }, 180_000);
  afterAll(async () => p?.close());

  const create = async (limit?: number) => {
    const out = await p.cli(['project', 'create', 'replicas', '--json', ...(limit ? ['--rate-limit', String(limit)] : [])], dashboard);
    const c = JSON.parse(out.stdout);
    return { id: c.project.id as string, key: c.api_key as string };
  };

  it('stops a revoked key on both replicas at once, in spite of their 60 s caches', async () => {
    const proj = await create();
    // Warm both caches.
    expect((await ingest(a, '/ingest/logs', proj.key, batch)).status).toBe(200);
    expect((await ingest(b, '/ingest/logs', proj.key, batch)).status).toBe(200);
    const out = await p.cli(['key', 'revoke', proj.id, '--json'], dashboard);
    expect(out.code, out.stderr).toBe(0);
    const newKey = JSON.parse(out.stdout).api_key;
    const t0 = Date.now();
    await expect
      .poll(async () => [(await ingest(a, '/ingest/logs', proj.key, batch)).status, (await ingest(b, '/ingest/logs', proj.key, batch)).status], {
        timeout: 2000,
        interval: 50,
      })
      .toEqual([401, 401]);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect((await ingest(a, '/ingest/logs', newKey, batch)).status).toBe(200);
    expect((await ingest(b, '/ingest/logs', newKey, batch)).status).toBe(200);
  });

  it('holds the per-key limit across replicas within 10 %', async () => {
    const limit = 200;
    const proj = await create(limit);
    // Stay inside one fixed window: start early in a minute.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    const statuses: number[] = [];
    // 600 requests, alternating replicas, 8 in flight.
    const jobs = Array.from({ length: 600 }, (_, i) => i);
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (jobs.length) {
          const i = jobs.shift()!;
          const r = await ingest(i % 2 ? a : b, '/ingest/logs', proj.key, batch);
          statuses.push(r.status);
          if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
        }
      }),
    );
    const accepted = statuses.filter((s) => s === 200).length;
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(accepted).toBeLessThanOrEqual(limit * 1.1);
    expect(accepted).toBeGreaterThanOrEqual(limit * 0.9);
  });
});
