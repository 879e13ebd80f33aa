import express from 'express';
import type { AddressInfo } from 'node:net';
import { devtrailErrorHandler, devtrailExpress, getRequestTelemetry } from '../src/express.js';
import { delay, runMiddlewareSuite } from './helpers/middleware-suite.js';

runMiddlewareSuite('express', async (client, options) => {
  const app = express();
  app.use(devtrailExpress(client, options));
  app.get('/users/:id', async (req, res) => {
    (getRequestTelemetry(req)?.logger ?? client.logger).info('request logger');
    await delay(5);
    client.logger.info('ambient logger');
    res.json({ id: req.params.id });
  });
  app.post('/echo', express.json(), async (req, res) => {
    await delay(1);
    client.logger.info('posted');
    res.json(req.body);
  });
  app.get('/boom', () => {
    throw new Error('kaboom');
  });
  app.get('/missing', (_req, res) => void res.status(404).send('nope'));
  app.get('/teapot', (_req, res) => void res.status(418).send('tea'));
  app.get('/health', (_req, res) => void res.send('ok'));
  app.get('/tagged', (_req, res) => {
    client.setTags({ tenant: 'acme', plan: 'pro' });
    res.send('ok');
  });
  app.use(devtrailErrorHandler(client));
  app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json({ error: err.message });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
});
