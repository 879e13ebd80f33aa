import { describe, expect, it } from 'vitest';
import { freshState, type GroupState } from '@devtrail/relational-store';
import { applyEvents } from '../src/triage/transition.ts';
import { isNewerRelease } from '../src/triage/release-order.ts';

// Triage transitions (docs/alerts.md, "Regressions"), one rule at a time.
const T0 = Date.parse('2026-01-01T00:00:00Z');
const base = (over: Partial<GroupState>): GroupState => ({
  ...freshState('p', 'f'.repeat(64)),
  firstSeen: new Date(T0).toISOString(),
  lastSeen: new Date(T0).toISOString(),
  ...over,
});

describe('group transitions', () => {
  it('creates a new group unresolved/new with first and last seen and release', () => {
    const o = applyEvents(
      undefined,
      freshState('p', 'a'.repeat(64)),
      [
        { atMs: T0 + 5, release: 'r2' },
        { atMs: T0, release: 'r1' },
      ],
      new Map(),
    );
    expect(o.created).toBe(true);
    expect(o.state).toMatchObject({ status: 'unresolved', substatus: 'new', firstRelease: 'r1', lastRelease: 'r2', firstSeen: new Date(T0).toISOString() });
  });

  it('regresses a resolved group on an event after the resolution, not before', () => {
    const resolved = base({ status: 'resolved', substatus: 'resolved', resolvedAt: new Date(T0 + 1000).toISOString() });
    expect(applyEvents(resolved, resolved, [{ atMs: T0 + 500, release: '' }], new Map()).regressed).toBe(false);
    const o = applyEvents(resolved, resolved, [{ atMs: T0 + 1500, release: '' }], new Map());
    expect(o.regressed).toBe(true);
    expect(o.state).toMatchObject({ status: 'unresolved', substatus: 'regressed', regressions: 1, resolvedAt: null });
  });

  it('regresses a group resolved in a release only on a newer release', () => {
    const inRelease = base({ status: 'resolved', substatus: 'resolved_in_release', resolvedInRelease: '1.4.0', resolvedAt: new Date(T0).toISOString() });
    expect(applyEvents(inRelease, inRelease, [{ atMs: T0 + 9e6, release: '1.3.9' }], new Map()).regressed).toBe(false);
    expect(applyEvents(inRelease, inRelease, [{ atMs: T0 + 9e6, release: '1.4.0' }], new Map()).regressed).toBe(false);
    expect(applyEvents(inRelease, inRelease, [{ atMs: T0 + 9e6, release: 'v1.4.1' }], new Map()).regressed).toBe(true);
  });

  it('ends an ignore at its time, or at its Nth event, and keeps an ignore forever', () => {
    const until = base({ status: 'ignored', substatus: 'ignored_until', ignoreUntil: new Date(T0 + 1000).toISOString() });
    expect(applyEvents(until, until, [{ atMs: T0 + 10, release: '' }], new Map()).state.status).toBe('ignored');
    expect(applyEvents(until, until, [{ atMs: T0 + 1000, release: '' }], new Map()).state).toMatchObject({ status: 'unresolved', substatus: 'ongoing' });
    const count = base({ status: 'ignored', substatus: 'ignored_count', ignoreEventsLeft: 3 });
    const two = applyEvents(
      count,
      count,
      [1, 2].map((i) => ({ atMs: T0 + i, release: '' })),
      new Map(),
    );
    expect(two.state).toMatchObject({ status: 'ignored', ignoreEventsLeft: 1 });
    expect(applyEvents(two.state, two.state, [{ atMs: T0 + 3, release: '' }], new Map()).state).toMatchObject({ status: 'unresolved', substatus: 'escalating' });
    const forever = base({ status: 'ignored', substatus: 'ignored_forever' });
    expect(applyEvents(forever, forever, [{ atMs: T0 + 9e9, release: 'x' }], new Map()).state.status).toBe('ignored');
  });
});

describe('newer release', () => {
  it('uses semver when both are versions, else when each was first seen; an unseen release has nothing newer', () => {
    expect(isNewerRelease('1.10.0', '1.9.0', new Map())).toBe(true);
    expect(isNewerRelease('1.9.0', '1.10.0', new Map())).toBe(false);
    const seen = new Map([
      ['abc123', 1000],
      ['def456', 2000],
    ]);
    expect(isNewerRelease('def456', 'abc123', seen)).toBe(true);
    expect(isNewerRelease('abc123', 'def456', seen)).toBe(false);
    expect(isNewerRelease('def456', 'unseen', seen)).toBe(false);
  });
});
