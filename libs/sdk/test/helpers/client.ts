import { vi } from 'vitest';
import { DevtrailClient } from '../../src/client.js';
import type { ClientOptions } from '../../src/options.js';
import { TEST_KEY } from './capture-server.js';
import { fakeFetch, type FetchCall } from './fake-fetch.js';
import { unbatch } from './unbatch.js';

/** A client wired to an in-memory fetch; call `await client.flush()` before reading `calls`. */
export function makeClient(options: ClientOptions = {}) {
  const { fetch, calls } = fakeFetch();
  const onWarning = vi.fn();
  const client = new DevtrailClient({
    apiKey: TEST_KEY,
    baseUrl: 'http://ingest.test',
    service: 'checkout',
    environment: 'test',
    release: 'v1',
    fetch,
    onWarning,
    // A session update per client would be in every request count; sessions.unit.test.ts has them.
    autoSessionTracking: false,
    ...options,
  });
  return { client, calls, onWarning };
}

/** What was sent for one kind's path: the records of the batch requests, as that route's bodies (unbatch.ts). */
export const bodiesAt = (calls: FetchCall[], path: string): any[] =>
  unbatch(
    calls.filter((c) => c.path === '/ingest/batch').map((c) => c.body),
    path,
  );
export const logsIn = (calls: FetchCall[]): any[] => bodiesAt(calls, '/ingest/logs').flatMap((b) => b.logs);
