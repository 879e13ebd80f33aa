import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChdbEngine } from './chdb-engine.ts';
import { ConnectionState } from './connection-state.ts';
import { readEngineInfo } from './engine-info.ts';
import { createRequestHandler } from './http-handler.ts';
import { SerialQueue } from './serial-queue.ts';

export interface StandinOptions {
  // 0 picks a free port.
  port: number;
  host?: string;
  // Where the engine keeps its databases; created if missing, reused across restarts.
  dataDir: string;
  // Requests allowed to wait for the engine before new ones get a 503.
  maxQueuedRequests?: number;
}

export interface Standin {
  readonly port: number;
  readonly host: string;
  readonly url: string;
  // Stops accepting requests, finishes the ones already in, closes the engine.
  close(): Promise<void>;
}

// The server's default keep_alive_timeout; clickhouse-js reads it from Keep-Alive.
const KEEP_ALIVE_SECONDS = 10;

export async function startStandin(options: StandinOptions): Promise<Standin> {
  const host = options.host ?? '127.0.0.1';
  const engine = ChdbEngine.open(options.dataDir);
  let server: Server | undefined;
  try {
    const info = await readEngineInfo(engine);
    const queue = new SerialQueue(options.maxQueuedRequests ?? 256);
    const state = new ConnectionState(engine, info.database, info.baselineSettings);
    // Long URLs are normal (INSERT column lists, bound params); ClickHouse allows 1 MiB.
    server = createServer({ maxHeaderSize: 1024 * 1024, requestTimeout: 0 }, createRequestHandler({ engine, state, info, queue }));
    server.keepAliveTimeout = KEEP_ALIVE_SECONDS * 1000;
    await listen(server, options.port, host);
    const port = (server.address() as AddressInfo).port;
    const running = server;
    let closing: Promise<void> | undefined;
    return {
      port,
      host,
      url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
      close: () => {
        closing ??= (async () => {
          const stopped = new Promise<void>((resolve) => running.close(() => resolve()));
          running.closeIdleConnections();
          // Requests already queued still run; a closed queue refuses the rest, so
          // nothing touches the engine once it is closed.
          await queue.close();
          running.closeAllConnections();
          await stopped;
          engine.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    server?.close();
    engine.close();
    throw error;
  }
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
