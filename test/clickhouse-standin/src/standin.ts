import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EngineChoice } from './engine.ts';
import { createRequestHandler } from './handle-request.ts';
import { openEngine } from './open-engine.ts';
import { scheduled } from './scheduled-engine.ts';

export interface StandinOptions {
  // 0 picks a free port.
  port: number;
  host?: string;
  // Where the engine keeps its databases; created if missing, reused across restarts.
  dataDir: string;
  // Today's chDB in-process (the default), or the production floor (README, "Two engines").
  engine?: EngineChoice;
}

export interface Standin {
  readonly url: string;
  // The engine's version().
  readonly version: string;
  // Stops accepting requests, finishes the ones already in, closes the engine.
  close(): Promise<void>;
}

export async function startStandin(options: StandinOptions): Promise<Standin> {
  const host = options.host ?? '127.0.0.1';
  const engine = scheduled(await openEngine(options.engine ?? { name: 'chdb' }, options.dataDir));
  // Long URLs are normal (bound params); a server allows 1 MiB.
  const server = createServer({ maxHeaderSize: 1024 * 1024 }, createRequestHandler(engine));
  // A server's keep_alive_timeout: longer than clickhouse-js keeps idle sockets (2.5 s).
  server.keepAliveTimeout = 10_000;
  try {
    await listen(server, options.port, host);
  } catch (error) {
    await engine.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    version: engine.version,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise((resolve) => server.close(resolve));
        server.closeIdleConnections();
        await engine.close();
        server.closeAllConnections();
        await stopped;
      })()),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
