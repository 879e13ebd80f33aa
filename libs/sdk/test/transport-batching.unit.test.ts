import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DevtrailClient } from '../src/client.js';
import { resolveOptions } from '../src/options.js';
import { fakeFetch } from './helpers/fake-fetch.js';
import { TEST_KEY } from './helpers/capture-server.js';
import { appLogs, log, makeTransport } from './helpers/transport.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

const span = (operation: string) => ({ trace_id: 't', span_id: 's', operation });
const error = (message: string) => ({ error_message: message, stack_trace: 's', severity: 'high' });

describe('batching every kind together', () => {
  it('holds records of any kind until the batch size is reached, then sends one request to /ingest/batch', async () => {
    const { transport, calls } = makeTransport(undefined, { batchSize: 3 });
    transport.send('log', log('a'));
    transport.send('span', span('op'));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(0);
    transport.send('log', log('b'));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('http://ingest.test/ingest/batch');
    expect(calls[0].body).toEqual({
      service: 'svc',
      environment: 'test',
      release: '1.0.0',
      logs: [log('a'), log('b')],
      spans: [span('op')],
    });
    expect(calls[0].headers).toMatchObject({ authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' });
    expect(calls[0].init.method).toBe('POST');
  });

  it('sends a partial batch when its oldest record has waited the flush interval', async () => {
    const { transport, calls } = makeTransport(undefined, { flushIntervalMs: 5000 });
    transport.send('log', log('a'));
    await vi.advanceTimersByTimeAsync(2000);
    transport.send('llm', { model: 'm' });
    await vi.advanceTimersByTimeAsync(2999);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
    expect(calls[0].body.logs.map((l: any) => l.message)).toEqual(['a']);
    expect(calls[0].body.llm).toEqual([{ model: 'm' }]);
    // the next record starts a fresh interval
    transport.send('span', span('c'));
    await vi.advanceTimersByTimeAsync(4999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
  });

  it('sends an error report at once, in a request of its own; logs and spans keep waiting for their batch', async () => {
    const { transport, calls } = makeTransport();
    transport.send('log', log('waits'));
    transport.send('span', span('waits too'));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(0);
    transport.send('error', error('boom'));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toEqual({ service: 'svc', environment: 'test', release: '1.0.0', errors: [error('boom')] });
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls[1].body).toEqual({ service: 'svc', environment: 'test', release: '1.0.0', logs: [log('waits')], spans: [span('waits too')] });
  });

  it('sends 1,000 spans in 2 requests with the default batch size of 500', async () => {
    const { transport, calls } = makeTransport(undefined, { batchSize: resolveOptions({}).batchSize, maxQueueSize: 10_000 });
    for (let i = 0; i < 1000; i++) transport.send('span', span(`op${i}`));
    expect(await transport.flush()).toBe(true);
    expect(calls.map((c) => c.body.spans.length)).toEqual([500, 500]);
    expect(transport.stats()).toMatchObject({ sent: 1000, requests: 2, dropped: 0 });
  });

  it('never puts more than 1000 records of a kind in one request', async () => {
    const { transport, calls } = makeTransport(undefined, { batchSize: 5000, maxQueueSize: 5000 });
    for (let i = 0; i < 2500; i++) transport.send('log', log(`m${i}`));
    expect(await transport.flush()).toBe(true);
    expect(calls.map((c) => c.body.logs.length)).toEqual([1000, 1000, 500]);
  });

  it('keeps every request within maxBatchBytes, and drops a record larger than that alone, counted', async () => {
    const { transport, calls, warn } = makeTransport(undefined, { maxBatchBytes: 2000 });
    for (let i = 0; i < 20; i++) transport.send('log', log(`${i}`.padEnd(200, '.')));
    transport.send('log', log('x'.repeat(3000)));
    expect(await transport.flush()).toBe(true);
    for (const c of calls) expect(Buffer.byteLength(c.init.body as string) - 80).toBeLessThanOrEqual(2000);
    expect(appLogs(calls).map((l: any) => l.message.slice(0, 2))).toEqual(Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(2, '.')));
    // 20 logs and the SDK's report of the drop (drop-report.ts)
    expect(transport.stats()).toMatchObject({ sent: 21, dropped: 1, droppedTooLarge: 1 });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/dropped 1 record\(s\): a log record of \d+ bytes is larger than maxBatchBytes \(2000\)/));
  });

  it('flush() sends pending records immediately and resolves true', async () => {
    const { transport, calls } = makeTransport();
    transport.send('log', log('a'));
    const flushed = transport.flush();
    await vi.advanceTimersByTimeAsync(0);
    expect(await flushed).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('close() flushes, then counts later records as dropped', async () => {
    const { transport, calls, warn } = makeTransport();
    transport.send('log', log('a'));
    expect(await transport.close()).toBe(true);
    expect(calls).toHaveLength(1);
    transport.send('error', { error_message: 'late' });
    expect(transport.stats()).toMatchObject({ sent: 1, dropped: 1, droppedAfterClose: 1 });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('after close()'));
  });

  it('uses fetch keepalive only when asked (the browser default)', async () => {
    const { transport, calls } = makeTransport(undefined, { keepalive: true });
    transport.send('error', { error_message: 'x' });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls[0].init.keepalive).toBe(true);
    const plain = makeTransport();
    plain.transport.send('error', { error_message: 'x' });
    await vi.advanceTimersByTimeAsync(0);
    expect(plain.calls[0].init.keepalive).toBeUndefined();
  });
});

describe('batching defaults', () => {
  it('flushes every 5 s normally and every 1 s on serverless platforms', () => {
    expect(resolveOptions({ serverless: false }).flushIntervalMs).toBe(5000);
    expect(resolveOptions({ serverless: true }).flushIntervalMs).toBe(1000);
    vi.stubEnv('AWS_LAMBDA_FUNCTION_NAME', 'fn');
    expect(resolveOptions({}).serverless).toBe(true);
    expect(resolveOptions({}).flushIntervalMs).toBe(1000);
    expect(resolveOptions({ flushIntervalMs: 250 }).flushIntervalMs).toBe(250);
  });

  it("caps batchSize at the receiver limit of 1000, and keeps browser requests within keepalive's limit", () => {
    expect(resolveOptions({ batchSize: 50_000 }).batchSize).toBe(1000);
    expect(resolveOptions({}).batchSize).toBe(500);
    expect(resolveOptions({}).maxBatchBytes).toBe(512 * 1024);
  });

  it('is a silent no-op without an API key', async () => {
    vi.stubEnv('DEVTRAIL_API_KEY', '');
    const { fetch } = fakeFetch();
    const onWarning = vi.fn();
    const client = new DevtrailClient({ baseUrl: 'http://ingest.test', fetch, onWarning });
    client.logger.info('hello');
    client.captureError(new Error('x'));
    client.llmUsage({ model: 'm', provider: 'p', operation: 'o', inputTokens: 1, outputTokens: 1, latencyMs: 1 });
    client.startSpan('op', () => 1);
    expect(await client.flush()).toBe(true);
    expect(client.enabled).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
    expect(onWarning).not.toHaveBeenCalled();
  });

  it('warns and stays disabled when a key is set without a base URL', () => {
    vi.stubEnv('DEVTRAIL_BASE_URL', '');
    const onWarning = vi.fn();
    const client = new DevtrailClient({ apiKey: TEST_KEY, onWarning });
    expect(client.enabled).toBe(false);
    expect(onWarning).toHaveBeenCalledWith(expect.stringContaining('baseUrl'));
  });

  it('reads key and base URL from the environment', () => {
    vi.stubEnv('DEVTRAIL_API_KEY', TEST_KEY);
    vi.stubEnv('DEVTRAIL_BASE_URL', 'http://from-env.test/');
    const client = new DevtrailClient({ fetch: fakeFetch().fetch });
    expect(client.enabled).toBe(true);
    expect(client.options.baseUrl).toBe('http://from-env.test');
    void client.close();
  });
});
