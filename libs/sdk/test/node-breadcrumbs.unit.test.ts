// Node breadcrumbs recorded without code changes (docs/sdk.md#breadcrumbs): the app's console
// calls and its outgoing HTTP requests (global fetch and node:http, to a real local server),
// on the error reports that follow; the SDK's own console output and delivery leave none.
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import '../src/node.js';
import { bodiesAt, makeClient } from './helpers/client.js';

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => res.writeHead(req.url?.startsWith('/missing') ? 404 : 200).end('ok'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('Node breadcrumbs', () => {
  it('console calls and outgoing requests become breadcrumbs of the next error report', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { client, calls } = makeClient({ captureUncaught: false, flushOnSignals: false, traceOutgoing: false, console: true });
    try {
      console.info('cache warmed', { keys: 12 });
      console.warn(new Error('slow disk'));
      client.logger.info('an SDK log printed to the console'); // a log breadcrumb, not a console one
      await fetch(`${url}/price?token=secret`);
      await new Promise<void>((r) => get(`${url}/missing`, (res) => res.resume().on('end', () => r())));
      client.captureError(new Error('checkout failed'));
      await client.flush();
    } finally {
      await client.close();
      out.mockRestore();
      err.mockRestore();
    }
    const [report] = bodiesAt(calls, '/ingest/errors');
    expect(report.breadcrumbs.map((b: any) => [b.type, b.message])).toEqual([
      ['console', '[info] cache warmed {"keys":12}'],
      ['console', '[warn] Error: slow disk'],
      ['log', '[info] an SDK log printed to the console'],
      ['http', `GET ${url}/price 200`],
      ['http', `GET ${url}/missing 404`],
    ]);
  });

  it('breadcrumbs: false (or { console: false, http: false }) records none', async () => {
    const { client, calls } = makeClient({ captureUncaught: false, flushOnSignals: false, breadcrumbs: { console: false, http: false } });
    console.debug('quiet');
    await fetch(`${url}/price`);
    client.captureError(new Error('x'));
    await client.close();
    expect(bodiesAt(calls, '/ingest/errors')[0].breadcrumbs).toBeUndefined();
  });
});
