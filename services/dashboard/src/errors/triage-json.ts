import type { ErrorGroup } from '@devtrail/kinds';
import { effectiveStatus, type GroupState, type HistoryEntry } from '@devtrail/relational-store';

// A group's triage state as the API shows it (snake_case). A group without a stored state
// is unresolved/new.

export interface GroupStateJson {
  status: 'unresolved' | 'resolved' | 'ignored';
  substatus: string;
  resolved_at: string | null;
  resolved_in_release: string | null;
  ignore_until: string | null;
  ignore_events_left: number | null;
  regressed_at: string | null;
  regressions: number;
  first_release: string;
  last_release: string;
  updated_at: string | null;
}

export function stateJson(s: GroupState | undefined, nowMs = Date.now()): GroupStateJson {
  if (!s)
    return {
      status: 'unresolved',
      substatus: 'new',
      resolved_at: null,
      resolved_in_release: null,
      ignore_until: null,
      ignore_events_left: null,
      regressed_at: null,
      regressions: 0,
      first_release: '',
      last_release: '',
      updated_at: null,
    };
  const status = effectiveStatus(s, nowMs);
  return {
    status,
    substatus: status !== s.status ? 'ongoing' : s.substatus,
    resolved_at: s.resolvedAt,
    resolved_in_release: s.resolvedInRelease,
    ignore_until: s.ignoreUntil,
    ignore_events_left: s.ignoreEventsLeft,
    regressed_at: s.regressedAt,
    regressions: s.regressions,
    first_release: s.firstRelease,
    last_release: s.lastRelease,
    updated_at: s.updatedAt,
  };
}

export const historyJson = (h: HistoryEntry) => ({
  at: h.at,
  actor: { kind: h.actor.kind, id: h.actor.id, name: h.actor.name },
  action: h.action,
  from_status: h.fromStatus,
  to_status: h.toStatus,
  details: h.details,
});

export type TriagedGroup = ErrorGroup & { state: GroupStateJson; assignee: { id: string; name: string } | null };
