import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import '../src/node.js'; // on Node the package's main entry turns on AsyncLocalStorage
import { devtrailHono, getRequestTelemetry } from '../src/hono.js';
import { delay, runMiddlewareSuite } from './helpers/middleware-suite.js';

runMiddlewareSuite('hono', async (client, options) => {
  const app = new Hono();
  app.use('*', devtrailHono(client, options));
  app.get('/users/:id', async (c) => {
    (getRequestTelemetry(c)?.logger ?? client.logger).info('request logger');
    await delay(5);
    client.logger.info('ambient logger');
    return c.json({ id: c.req.param('id') });
  });
  app.post('/echo', async (c) => {
    const body = await c.req.json();
    await delay(1);
    client.logger.info('posted');
    return c.json(body);
  });
  app.get('/boom', () => {
    throw new Error('kaboom');
  });
  app.get('/missing', (c) => c.text('nope', 404));
  app.get('/teapot', (c) => c.text('tea', 418));
  app.get('/health', (c) => c.text('ok'));
  app.get('/tagged', (c) => {
    client.setTags({ tenant: 'acme', plan: 'pro' });
    return c.text('ok');
  });
  app.onError((err, c) => c.json({ error: err.message }, 500));

  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        (server as unknown as { closeAllConnections(): void }).closeAllConnections();
        server.close(() => resolve());
      }),
  };
});
