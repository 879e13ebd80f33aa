import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A real HTTP server standing in for Slack and for a customer's webhook endpoint: it
// records every request it gets (headers, raw body, time) and answers as each path is told.

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Behaviour = (nth: number) => { status: number; body?: string; holdMs?: number };

export interface WebhookReceiver {
  url: string;
  received: (path?: string) => Received[];
  /** How a path answers its nth request (1-based); default 200 "ok". */
  on(path: string, b: Behaviour): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const got: Received[] = [];
  const behaviours = new Map<string, Behaviour>();
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      got.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const nth = (counts.get(path) ?? 0) + 1;
      counts.set(path, nth);
      const b = behaviours.get(path)?.(nth) ?? { status: 200, body: 'ok' };
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(b.status, { 'content-type': 'text/plain' }).end(b.body ?? '');
      };
      if (b.holdMs) setTimeout(answer, b.holdMs);
      else answer();
    });
    req.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: (path) => got.filter((r) => path === undefined || r.path === path),
    on: (path, b) => behaviours.set(path, b),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
