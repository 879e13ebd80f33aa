import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { devtrailFastify, getRequestTelemetry } from '../src/fastify.js';
import { delay, runMiddlewareSuite } from './helpers/middleware-suite.js';
import { describe, expect, it } from 'vitest';

runMiddlewareSuite('fastify', async (client, options) => {
  const app = Fastify();
  await app.register(devtrailFastify, { client, ...options });
  app.get<{ Params: { id: string } }>('/users/:id', async (request) => {
    (getRequestTelemetry(request)?.logger ?? client.logger).info('request logger');
    await delay(5);
    client.logger.info('ambient logger');
    return { id: request.params.id };
  });
  app.post('/echo', async (request) => {
    await delay(1);
    client.logger.info('posted');
    return request.body;
  });
  app.get('/boom', async () => {
    throw new Error('kaboom');
  });
  app.get('/missing', async (_req, reply) => reply.code(404).send('nope'));
  app.get('/teapot', async (_req, reply) => reply.code(418).send('tea'));
  app.get('/health', async () => 'ok');
  app.get('/tagged', async () => {
    client.setTags({ tenant: 'acme', plan: 'pro' });
    return 'ok';
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: () => app.close(),
  };
});

describe('fastify plugin registration', () => {
  it('applies to routes registered in child plugins (skip-override)', async () => {
    const { DevtrailClient } = await import('../src/client.js');
    const client = new DevtrailClient({});
    const app = Fastify();
    await app.register(devtrailFastify, { client });
    await app.register(async (child) => {
      child.get('/nested', async (request) => ({ traced: !!getRequestTelemetry(request) }));
    });
    const res = await app.inject({ method: 'GET', url: '/nested' });
    expect(res.json()).toEqual({ traced: true });
    expect(res.headers['x-trace-id']).toMatch(/^[0-9a-f]{32}$/);
    await app.close();
  });

  it('refuses to register without a client', async () => {
    const app = Fastify();
    await expect(app.register(devtrailFastify, {} as never)).rejects.toThrow(/pass \{ client \}/);
  });
});
