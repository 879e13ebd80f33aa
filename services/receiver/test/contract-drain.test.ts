import { createHmac } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectsRepo } from '@devtrail/relational-store';
import { receiverHarness, type Harness } from './harness.ts';

// POST /ingest/drain: a Vercel log drain (JSON array or NDJSON, gzip or not, optional signature).
let h: Harness;
beforeAll(async () => {
  h = await receiverHarness();
});
afterAll(async () => h.close());

const entry = (i: number, extra: Record<string, unknown> = {}) => ({
  id: `log-${i}`,
  message: `drain message ${i}`,
  timestamp: 1763719200000 + i,
  source: 'lambda',
  level: 'warning',
  projectId: 'prj_1',
  projectName: 'storefront',
  deploymentId: 'dpl_abc',
  host: 'storefront.vercel.app',
  path: '/api/checkout',
  statusCode: 502,
  requestId: 'req-9',
  environment: 'preview',
  executionRegion: 'iad1',
  proxy: { method: 'POST', host: 'shop.example.com', path: '/api/checkout', statusCode: 502, clientIp: '203.0.113.9', userAgent: ['curl/8'] },
  ...extra,
});

const send = (payload: string | Buffer, headers: Record<string, string> = {}, key = h.project.key) =>
  h.app.inject({ method: 'POST', url: '/ingest/drain', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, payload });

describe('POST /ingest/drain', () => {
  it('maps a JSON array of Vercel entries to logs', async () => {
    const res = await send(JSON.stringify([entry(1), entry(2, { level: 'fatal' }), entry(3, { level: 'info' }), entry(4, { level: 'error' })]));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, count: 4 });
    const logs = (await h.produced('log')).filter((e) => e.data.message.startsWith('drain message'));
    const first = logs.find((l) => l.data.message === 'drain message 1')!;
    expect(first.data).toMatchObject({
      level: 'warn',
      timestamp: new Date(1763719200001).toISOString(),
      service: 'storefront',
      environment: 'preview',
      release: 'dpl_abc',
      request_id: 'req-9',
      context: 'lambda',
      metadata: {
        source: 'lambda',
        host: 'storefront.vercel.app',
        path: '/api/checkout',
        status_code: 502,
        deployment_id: 'dpl_abc',
        region: 'iad1',
        proxy: { method: 'POST', clientIp: '203.0.113.9' },
      },
    });
    const levels = Object.fromEntries(logs.map((l) => [l.data.message, l.data.level]));
    expect(levels).toMatchObject({ 'drain message 2': 'error', 'drain message 3': 'info', 'drain message 4': 'error' });
  });

  it('accepts NDJSON, gzip or not', async () => {
    const nd = [entry(10), entry(11)].map((e) => JSON.stringify(e)).join('\n') + '\n';
    expect((await send(nd, { 'content-type': 'application/x-ndjson' })).json()).toEqual({ ok: true, count: 2 });
    expect((await send(gzipSync(nd), { 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' })).json()).toEqual({ ok: true, count: 2 });
    expect((await send(gzipSync(JSON.stringify([entry(12)])), { 'content-encoding': 'gzip' })).json()).toEqual({ ok: true, count: 1 });
  });

  it('verifies x-vercel-signature when the project has a drain secret', async () => {
    const p = await h.newProject('signed-drain');
    await projectsRepo(h.adapters.relational).setDrainSecret(p.id, 'drain-secret');
    const body = JSON.stringify([entry(20)]);
    const sig = createHmac('sha1', 'drain-secret').update(body).digest('hex');
    expect((await send(body, { 'x-vercel-signature': sig }, p.key)).statusCode).toBe(200);
    const bad = await send(body, { 'x-vercel-signature': sig.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) }, p.key);
    expect(bad.statusCode).toBe(403);
    expect(bad.json()).toEqual({ error: 'Invalid drain signature' });
    expect((await send(body, {}, p.key)).statusCode).toBe(403);
    // Signature over the decompressed body also holds for gzip deliveries.
    expect((await send(gzipSync(body), { 'x-vercel-signature': sig, 'content-encoding': 'gzip' }, p.key)).statusCode).toBe(200);
  });

  it('refuses malformed drains with 400 JSON', async () => {
    expect((await send('[{"message":"no timestamp"}]')).statusCode).toBe(400);
    expect((await send('{"not":"an array"}')).statusCode).toBe(400);
    expect((await send('{"a":1}\nnot json', { 'content-type': 'application/x-ndjson' })).statusCode).toBe(400);
    expect((await send('[]')).json()).toEqual({ ok: true, count: 0 });
  });
});
