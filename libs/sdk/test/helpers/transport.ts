import { vi } from 'vitest';
import { HttpTransport, type TransportOptions } from '../../src/transport/transport.js';
import { fakeFetch, type Responder } from './fake-fetch.js';
import { TEST_KEY } from './capture-server.js';

export function makeTransport(responder?: Responder, overrides: Partial<TransportOptions> = {}) {
  const { fetch, calls } = fakeFetch(responder);
  const warn = vi.fn();
  const transport = new HttpTransport({
    apiKey: TEST_KEY,
    baseUrl: 'http://ingest.test',
    envelope: { service: 'svc', environment: 'test', release: '1.0.0' },
    batchSize: 100,
    maxBatchBytes: 512 * 1024,
    flushIntervalMs: 5000,
    maxQueueSize: 1000,
    maxQueueBytes: 16 * 1024 * 1024,
    maxRetries: Number.POSITIVE_INFINITY,
    retryForMs: 15 * 60_000,
    initialBackoffMs: 500,
    maxBackoffMs: 30_000,
    requestTimeoutMs: 10_000,
    keepalive: false,
    fetch,
    warn,
    random: () => 0.5,
    ...overrides,
  });
  return { transport, calls, warn };
}

export const log = (message: string) => ({ level: 'info', message, timestamp: '2024-01-01T00:00:00.000Z' });

/** The logs of the requests made, less the SDK's own reports of what it dropped (src/transport/drop-report.ts). */
export const appLogs = (calls: Array<{ body: any }>) => calls.flatMap((c) => c.body.logs ?? []).filter((l: any) => l.context !== 'devtrail.sdk');
