import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotaRepo, type RelationalStore } from '@devtrail/relational-store';
import { migratedPglite } from '../../../test/support/pglite-template.ts';
import { resolvePolicy } from '@devtrail/data-policy';
import { EventQuotas } from '../src/data/event-quotas.ts';

// Quotas and the spike guard over the real shared windows (PGlite, the embedded mode's
// PostgreSQL): two receivers share a project's limit and never overshoot it together; a
// spike is refused above K times the last hour's average. The clock is the test's.

const MINUTE = 60_000;
const settle = () => new Promise((r) => setTimeout(r, 50));

describe('event quotas and spike guard (two receivers, PGlite)', () => {
  let store: RelationalStore;
  const clock = Date.UTC(2026, 10, 24, 12, 0, 5);
  const receiver = () => {
    const q = quotaRepo(store);
    return new EventQuotas(
      (scope, start, n, limit) => q.lease(scope, start, n, limit),
      (scope, from, to) => q.total(scope, from, to),
      () => {},
      () => clock,
    );
  };

  beforeAll(async () => {
    store = await migratedPglite();
  });
  afterAll(async () => store?.close());

  it('admits the per-minute quota across receivers, all of a request or none, past it by at most a request per receiver', async () => {
    const policy = resolvePolicy({ quotas: { logs: { per_minute: 100 } } }, 30);
    const [a, b] = [receiver(), receiver()];
    let admitted = 0;
    const refusals = [];
    for (let i = 0; i < 30; i++) {
      const r = (i % 2 ? a : b).admit('p1', 'log', 10, policy);
      if (r) refusals.push(r);
      else admitted += 10;
      await settle(); // leases complete between requests, as they do between a receiver's requests
    }
    expect(admitted).toBeLessThanOrEqual(100 + 2 * 10);
    expect(admitted).toBeGreaterThanOrEqual(80);
    expect(refusals[0]).toMatchObject({ reason: 'quota_per_minute', limit: 100 });
    expect(refusals[0].retryAfterSeconds).toBe(55);
    // Other kinds and projects are not limited by it.
    expect(a.admit('p1', 'error', 10, policy)).toBeNull();
    expect(a.admit('p2', 'log', 10, policy)).toBeNull();
  });

  it('refuses past the day quota, and gives back what a request did not use', async () => {
    const policy = resolvePolicy({ quotas: { spans: { per_day: 30 } } }, 30);
    const a = receiver();
    expect(a.admit('p3', 'span', 20, policy)).toBeNull();
    await settle();
    const refused = a.admit('p3', 'span', 20, policy);
    expect(refused).toMatchObject({ reason: 'quota_per_day', limit: 30 });
    expect(refused!.retryAfterSeconds).toBeGreaterThan(11 * 3600);
    a.giveBack('p3', 'span', 20, policy); // the first request's events were not produced after all
    expect(a.admit('p3', 'span', 20, policy)).toBeNull();
  });

  it('the spike guard refuses above K times the last hour, never below its floor', async () => {
    const q = quotaRepo(store);
    const minute = Math.floor(clock / MINUTE) * MINUTE;
    // An hour of 100 events a minute, as receivers leased them.
    for (let m = 1; m <= 60; m++) await q.lease('p4:log:m', new Date(minute - m * MINUTE), 100, 1_000_000);
    const policy = resolvePolicy({ spike_guard: { enabled: true, factor: 3, min_per_minute: 50 } }, 30);
    const a = receiver();
    expect(a.admit('p4', 'log', 1, policy), 'the baseline is being read: not refused').toBeNull();
    await settle();
    let admitted = 1;
    let refusal = null;
    while (!refusal && admitted < 1000) {
      refusal = a.admit('p4', 'log', 10, policy);
      if (!refusal) admitted += 10;
      await settle();
    }
    expect(refusal).toMatchObject({ reason: 'spike_guard', limit: 300 });
    expect(admitted).toBeLessThanOrEqual(300);
    expect(admitted).toBeGreaterThan(250);
    // A quiet project gets the floor.
    const quiet = resolvePolicy({ spike_guard: { enabled: true, factor: 3, min_per_minute: 50 } }, 30);
    expect(a.admit('p5', 'log', 1, quiet)).toBeNull();
    await settle();
    expect(a.admit('p5', 'log', 60, quiet)).toMatchObject({ reason: 'spike_guard', limit: 50 });
  });
});
