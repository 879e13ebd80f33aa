// A tiny HTTP server on 127.0.0.1 that records what the SDK sends. It stands
// in for the devtrail receiver in these tests; it is NOT the real receiver
// and validates nothing beyond JSON parsing.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { unbatch } from './unbatch.js';

export interface CapturedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface CaptureServer {
  url: string;
  requests: CapturedRequest[];
  /** What was sent for one kind's path, e.g. '/ingest/traces': the records of the batches, as that route's bodies (unbatch.ts). */
  bodies(path: string): any[];
  /** All log entries across /ingest/logs batches. */
  logs(): any[];
  waitFor(predicate: (requests: CapturedRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startCaptureServer(): Promise<CaptureServer> {
  const requests: CapturedRequest[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : undefined });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const bodies = (path: string) =>
    unbatch(
      requests.filter((r) => r.path === '/ingest/batch').map((r) => r.body),
      path,
    );
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    bodies,
    logs: () => bodies('/ingest/logs').flatMap((b) => b.logs),
    async waitFor(predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(requests)) {
        if (Date.now() > deadline) throw new Error(`capture server: condition not met in ${timeoutMs} ms; got ${JSON.stringify(requests.map((r) => r.path))}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const TEST_KEY = `dt_${'0123456789abcdef01234567'}`;
