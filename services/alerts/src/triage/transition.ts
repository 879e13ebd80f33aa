import type { GroupState } from '@devtrail/relational-store';
import { isNewerRelease } from './release-order.ts';

// What new events do to a group's state (docs/alerts.md, "Triage"), as a pure function so
// each rule of it is tested on its own:
// - a group seen for the first time is created unresolved/new
// - resolved: an event received after the resolution regresses it (unresolved/regressed)
// - resolved in release R: an event of a newer release than R regresses it; events of R or
//   older releases (old deploys still running) do not
// - ignored until a time: the first event after it makes the group unresolved again
// - ignored until N more events: the Nth event makes it unresolved (escalating)
// - ignored forever: stays ignored
// First and last seen, first and last release follow the events.

export interface GroupEvent {
  atMs: number;
  release: string;
}

export interface Transition {
  action: 'first_seen' | 'regression' | 'ignore_expired' | 'ignore_count_reached';
  from: string | null;
  to: string;
  details: Record<string, unknown>;
}

export interface Outcome {
  state: GroupState;
  created: boolean;
  regressed: boolean;
  transitions: Transition[];
}

export function applyEvents(before: GroupState | undefined, fresh: GroupState, events: GroupEvent[], releaseFirstSeen: Map<string, number>): Outcome {
  const sorted = [...events].sort((a, b) => a.atMs - b.atMs);
  let s: GroupState = before ? { ...before } : { ...fresh };
  const created = before === undefined;
  const transitions: Transition[] = [];
  let regressed = false;
  if (created) transitions.push({ action: 'first_seen', from: null, to: 'unresolved', details: {} });
  for (const e of sorted) {
    const at = new Date(e.atMs).toISOString();
    if (s.firstSeen === null || e.atMs < Date.parse(s.firstSeen)) {
      s.firstSeen = at;
      if (e.release) s.firstRelease = e.release;
    }
    if (s.lastSeen === null || e.atMs >= Date.parse(s.lastSeen)) {
      s.lastSeen = at;
      if (e.release) s.lastRelease = e.release;
    }
    if (!s.firstRelease && e.release) s.firstRelease = e.release;

    if (s.status === 'resolved') {
      const afterResolution = s.substatus === 'resolved' && s.resolvedAt !== null && e.atMs > Date.parse(s.resolvedAt);
      const newerRelease = s.substatus === 'resolved_in_release' && s.resolvedInRelease !== null && isNewerRelease(e.release, s.resolvedInRelease, releaseFirstSeen);
      if (afterResolution || newerRelease) {
        transitions.push({
          action: 'regression',
          from: 'resolved',
          to: 'unresolved',
          details: { event_at: at, release: e.release, resolved_at: s.resolvedAt, resolved_in_release: s.resolvedInRelease },
        });
        s = { ...s, status: 'unresolved', substatus: 'regressed', resolvedAt: null, resolvedInRelease: null, regressedAt: at, regressions: s.regressions + 1 };
        regressed = true;
      }
    } else if (s.status === 'ignored') {
      if (s.substatus === 'ignored_until' && s.ignoreUntil !== null && e.atMs >= Date.parse(s.ignoreUntil)) {
        transitions.push({ action: 'ignore_expired', from: 'ignored', to: 'unresolved', details: { until: s.ignoreUntil, event_at: at } });
        s = { ...s, status: 'unresolved', substatus: 'ongoing', ignoreUntil: null };
      } else if (s.substatus === 'ignored_count' && s.ignoreEventsLeft !== null) {
        const left = s.ignoreEventsLeft - 1;
        if (left <= 0) {
          transitions.push({ action: 'ignore_count_reached', from: 'ignored', to: 'unresolved', details: { event_at: at } });
          s = { ...s, status: 'unresolved', substatus: 'escalating', ignoreEventsLeft: null };
        } else {
          s = { ...s, ignoreEventsLeft: left };
        }
      }
    }
  }
  return { state: s, created, regressed, transitions };
}
