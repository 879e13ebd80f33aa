import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createMetrics, METRICS_REFUSED, registerMetricsRoute, serveMetricsPort } from '../src/index.ts';

// /metrics is not public on the service ports (docs/operations.md#metrics): loopback without a
// proxy in between, or the metrics token; the private metrics port serves anyone who reaches it.
describe('who may read /metrics', () => {
  const metrics = createMetrics({ processMetrics: false });
  const token = 'mtk_0123456789abcdef0123';
  const app = Fastify();
  registerMetricsRoute(app, metrics, async () => ({ figures: 1 }), { token });
  afterAll(() => app.close());
  const get = (remoteAddress: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

  it('a stranger, or anyone through a proxy, gets 403; loopback and the token holder get the figures', async () => {
    const stranger = await get('203.0.113.9');
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json()).toEqual({ error: METRICS_REFUSED });
    expect((await get('10.0.0.5')).statusCode).toBe(403); // a proxy or another pod: not this host
    expect((await get('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(403); // a proxy on this host
    expect((await get('127.0.0.1', { forwarded: 'for=203.0.113.9' })).statusCode).toBe(403);
    expect((await get('203.0.113.9', { authorization: 'Bearer mtk_wrong_wrong_wrong_wrong' })).statusCode).toBe(403);
    expect((await get('127.0.0.1', { authorization: 'Bearer mtk_wrong_wrong_wrong_wrong' })).statusCode).toBe(403);
    const local = await get('127.0.0.1');
    expect(local.statusCode).toBe(200);
    expect(local.body).toMatch(/# TYPE devtrail_/);
    const holder = await get('203.0.113.9', { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.9' });
    expect(holder.statusCode).toBe(200);
    expect((await get('::1', { accept: 'application/json' })).json()).toEqual({ figures: 1 });
  });

  it('the metrics port serves /metrics to Prometheus, and nothing else', async () => {
    const port = await serveMetricsPort('127.0.0.1', 0, metrics, async () => ({ figures: 2 }));
    try {
      const text = await fetch(`http://127.0.0.1:${port.port}/metrics`);
      expect(text.status).toBe(200);
      expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await text.text()).toMatch(/# TYPE devtrail_/);
      expect((await fetch(`http://127.0.0.1:${port.port}/metrics?format=json`).then((r) => r.json())) as unknown).toEqual({ figures: 2 });
      expect((await fetch(`http://127.0.0.1:${port.port}/health`)).status).toBe(404);
    } finally {
      await port.close();
    }
  });
});
