// Release health on the client (docs/sdk.md#release-health): a session per client with a
// release, its updates (started ok; errored on a handled error; crashed on an unhandled one;
// exited at the end) as records of the batch request's `sessions` section.
import { describe, expect, it } from 'vitest';
import '../src/node.js';
import { bodiesAt, makeClient } from './helpers/client.js';

const sessions = (calls: Parameters<typeof bodiesAt>[0]) =>
  calls.filter((c) => c.path === '/ingest/batch').flatMap((c) => (c.body.sessions ?? []).map((s: any) => ({ ...s, release: c.body.release })));

const opts = { autoSessionTracking: true, captureUncaught: false, flushOnSignals: false, breadcrumbs: false } as const;

describe('sessions', () => {
  it('a session starts ok with the client and ends exited at close(), with its release, duration and user', async () => {
    const { client, calls } = makeClient(opts);
    client.setUser({ id: 'u-1', email: 'a@example.com' });
    await client.close();
    const [start, end] = sessions(calls);
    expect(start).toMatchObject({ status: 'ok', seq: 0, errors: 0, release: 'v1' });
    expect(end).toMatchObject({ session_id: start.session_id, status: 'exited', seq: 1, errors: 0, distinct_id: 'u-1', start_time: start.start_time });
    expect(start.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(end.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('a handled error makes it errored (once), an unhandled one crashed; the end keeps the worst', async () => {
    const { client, calls } = makeClient(opts);
    client.captureError(new Error('handled'));
    client.captureMessage('also counts');
    client.captureError(new Error('nobody caught this'), { context: { handled: false } });
    client.captureError(new Error('after the crash'));
    await client.close();
    expect(sessions(calls).map((s) => [s.status, s.errors, s.seq])).toEqual([
      ['ok', 0, 0],
      ['errored', 1, 1],
      ['crashed', 3, 2],
      ['crashed', 4, 3],
    ]);
  });

  it('errors left out by sampleRate still count for health', async () => {
    const { client, calls } = makeClient({ ...opts, sampleRate: 0 });
    client.captureError(new Error('sampled out'));
    await client.close();
    expect(bodiesAt(calls, '/ingest/errors')).toEqual([]);
    expect(sessions(calls).at(-1)).toMatchObject({ status: 'errored', errors: 1 });
  });

  it('no release, no sessions; autoSessionTracking: false, none either; startSession() starts a new one', async () => {
    const none = makeClient({ ...opts, release: undefined });
    none.client.logger.info('x');
    await none.client.close();
    expect(sessions(none.calls)).toEqual([]);
    const off = makeClient({ ...opts, autoSessionTracking: false });
    off.client.startSession();
    off.client.startSession();
    await off.client.close();
    const ids = [...new Set(sessions(off.calls).map((s) => s.session_id))];
    expect(ids).toHaveLength(2);
    expect(sessions(off.calls).map((s) => s.status)).toEqual(['ok', 'exited', 'ok', 'exited']);
  });
});
