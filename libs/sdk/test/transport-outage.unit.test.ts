// An outage of the receiver (docs/sdk.md#outages): the retry schedule over minutes, the order in
// which a full queue lets records go, the report of drops once the receiver answers again, and
// the offline stores (localStorage, a spool directory) with their bounds.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileSpool } from '../src/node/spool.js';
import { LocalStorageStore, type StoredRequest } from '../src/transport/request-store.js';
import { ok, status, type FetchCall } from './helpers/fake-fetch.js';
import { appLogs, log, makeTransport } from './helpers/transport.js';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2024-06-01T00:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

const error = (message: string) => ({ error_message: message, stack_trace: 's', severity: 'high' });

/** A Storage held in a Map: NOT the browser's localStorage (browser-outage.test.ts runs that, in Chromium). */
function mapStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, String(v)),
    removeItem: (k) => void m.delete(k),
    key: (i) => [...m.keys()][i] ?? null,
  };
}

describe('the retry schedule', () => {
  it('retries for retryForMs (15 minutes by default), backing off up to maxBackoffMs, then drops and counts', async () => {
    const times: number[] = [];
    const start = Date.now();
    const { transport, calls, warn } = makeTransport(
      () => {
        times.push(Date.now() - start);
        return new TypeError('fetch failed');
      },
      { random: () => 1 },
    );
    transport.send('error', error('during the outage'));
    await vi.advanceTimersByTimeAsync(20 * 60_000);
    // 0, then 500 ms doubling to the 30 s ceiling, then every 30 s until 15 minutes have passed
    expect(times.slice(0, 8)).toEqual([0, 500, 1500, 3500, 7500, 15_500, 31_500, 61_500]);
    expect(times.at(-1)).toBeLessThanOrEqual(15 * 60_000);
    expect(times.at(-1)).toBeGreaterThan(14 * 60_000);
    expect(calls.length).toBe(times.length);
    expect(new Set(calls.map((c) => c.headers['idempotency-key'])).size).toBe(1);
    expect(transport.stats()).toMatchObject({ sent: 0, dropped: 1, droppedRetriesExhausted: 1 });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/gave up after \d+ attempts in \d+ s \(network error/));
  });

  it('outlives a 5-minute outage: the error goes once the receiver answers, with the key of its first attempt', async () => {
    let down = true;
    setTimeout(() => (down = false), 5 * 60_000);
    const delivered: FetchCall[] = [];
    const { transport, calls } = makeTransport((c) => {
      if (down) return new TypeError('connect ECONNREFUSED');
      delivered.push(c);
      return ok();
    });
    for (let i = 0; i < 30; i++) transport.send('error', error(`e${i}`));
    await vi.advanceTimersByTimeAsync(6 * 60_000);
    expect(transport.stats()).toMatchObject({ sent: 30, dropped: 0 });
    const keys = delivered.map((c) => c.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(keys.length); // each request answered once
    expect(delivered.flatMap((c) => c.body.errors.map((e: any) => e.error_message)).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `e${i}`).sort());
    // every attempt of a request is the same body under the same key
    for (const c of calls) expect(c.body).toEqual(delivered.find((d) => d.headers['idempotency-key'] === c.headers['idempotency-key'])!.body);
  });
});

describe('a full queue during an outage', () => {
  it('lets the oldest logs and spans go before any error report', async () => {
    const { transport, calls } = makeTransport((_c, i) => (i === 0 ? status(503) : ok()), { maxQueueSize: 5, batchSize: 2 });
    transport.send('error', error('first'));
    await vi.advanceTimersByTimeAsync(0); // answered 503: waiting for its retry
    transport.send('error', error('second'));
    for (let i = 0; i < 6; i++) transport.send('log', log(`l${i}`));
    expect(transport.stats()).toMatchObject({ queued: 5, droppedQueueFull: 3 });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.flatMap((c) => c.body.errors ?? []).map((e: any) => e.error_message)).toEqual(['first', 'first', 'second']);
    expect(appLogs(calls).map((l: any) => l.message)).toEqual(['l3', 'l4', 'l5']);
  });

  it('reports what it dropped to the receiver once it answers again, once', async () => {
    let down = true;
    const { transport, calls } = makeTransport(() => (down ? status(503) : ok()), { maxQueueSize: 3 });
    for (let i = 0; i < 5; i++) transport.send('log', log(`l${i}`));
    transport.send('error', error('kept'));
    await vi.advanceTimersByTimeAsync(1000);
    down = false;
    await vi.advanceTimersByTimeAsync(60_000);
    const reports = calls.flatMap((c) => c.body.logs ?? []).filter((l: any) => l.context === 'devtrail.sdk');
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ level: 'warn', metadata: { 'sdk.dropped': 3, droppedQueueFull: 3 } });
  });
});

describe('error reports kept in an offline store', () => {
  it('are written before they are first sent and removed once answered', async () => {
    const store = new LocalStorageStore('t', 64 * 1024, mapStorage());
    let seenInStore: StoredRequest[] = [];
    const { transport } = makeTransport(
      () => {
        seenInStore = store.load();
        return ok();
      },
      { store },
    );
    transport.send('error', error('boom'));
    await transport.flush();
    expect(seenInStore.map((r) => r.records.map(([kind]) => kind))).toEqual([['error']]);
    expect(store.load()).toEqual([]);
  });

  it('a page closed during an outage: the next one sends the same request again, same key and body', async () => {
    const storage = mapStorage();
    const first = makeTransport(() => new TypeError('Failed to fetch'), { store: new LocalStorageStore('t', 64 * 1024, storage) });
    first.transport.send('error', error('a'));
    first.transport.send('log', log('not kept'));
    await vi.advanceTimersByTimeAsync(2000);
    first.transport.send('error', error('b')); // not yet tried: a request of its own
    first.transport.dropPending('AtExit', 'page closed');
    expect(first.transport.stats()).toMatchObject({ droppedAtExit: 1 });

    const next = makeTransport(undefined, { store: new LocalStorageStore('t', 64 * 1024, storage) });
    await vi.advanceTimersByTimeAsync(0);
    await next.transport.flush();
    expect(next.calls.map((c) => c.body.errors.map((e: any) => e.error_message))).toEqual([['a'], ['b']]);
    expect(next.calls[0].headers['idempotency-key']).toBe(first.calls[0].headers['idempotency-key']);
    expect(JSON.stringify(next.calls[0].body)).toBe(JSON.stringify(first.calls[0].body));
    expect(next.transport.stats()).toMatchObject({ sent: 2, persisted: 0 });
    expect(new LocalStorageStore('t', 64 * 1024, storage).load()).toEqual([]);
  });

  it('does not send a stored request older than the receiver remembers its key (24 h)', async () => {
    const storage = mapStorage();
    new LocalStorageStore('t', 64 * 1024, storage).save({
      key: '0190a0b0-0000-7000-8000-000000000000',
      prefix: '{"service":"s"',
      records: [['error', '{}']],
      at: Date.now() - 25 * 3600_000,
    });
    const { transport, calls } = makeTransport(undefined, { store: new LocalStorageStore('t', 64 * 1024, storage) });
    await transport.flush();
    expect(calls).toHaveLength(0);
    expect(transport.stats()).toMatchObject({ droppedRetriesExhausted: 1 });
  });

  it('localStorage holds at most maxBytes: the oldest requests go first', () => {
    const store = new LocalStorageStore('t', 2000, mapStorage());
    for (let i = 0; i < 10; i++) store.save({ key: `k${i}`, prefix: '{', records: [['error', JSON.stringify({ m: 'x'.repeat(300) })]], at: i });
    const kept = store.load().map((r) => r.key);
    expect(kept.length).toBeLessThan(10);
    expect(kept.at(-1)).toBe('k9');
    expect(JSON.stringify(store.load()).length).toBeLessThanOrEqual(2000);
  });

  it('a spool directory holds at most maxBytes, oldest files going first, and reads back what it holds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dt-spool-'));
    try {
      const spool = new FileSpool(join(dir, 'spool'), 3000);
      const key = (i: number) => `0190a0b0-0000-7000-8000-${String(i).padStart(12, '0')}`;
      for (let i = 0; i < 10; i++) {
        vi.setSystemTime(Date.now() + 1000);
        spool.save({ key: key(i), prefix: '{', records: [['error', JSON.stringify({ m: 'x'.repeat(500) })]], at: Date.now() });
      }
      const files = readdirSync(join(dir, 'spool'));
      expect(files.length).toBeGreaterThan(2);
      expect(files.length).toBeLessThan(10);
      const loaded = spool.load();
      expect(loaded.at(-1)!.key).toBe(key(9));
      spool.remove(key(9));
      expect(spool.load().map((r) => r.key)).not.toContain(key(9));
      spool.save({ key: '../../etc/passwd', prefix: '{', records: [], at: 0 });
      expect(readdirSync(join(dir, 'spool')).length).toBe(files.length - 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
