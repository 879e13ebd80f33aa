import type { RelationalStore, SqlExecutor } from '../relational-store.ts';

// Error group triage (docs/alerts.md, "Triage"): each group's state, and every change of
// it with who and when. People change states through the API; the alerts consumer creates
// a group's row when its first event passes and moves it on its own (a regression, an
// ignore that ran out), as the actor "system".

export const GROUP_STATUSES = ['unresolved', 'resolved', 'ignored'] as const;
export type GroupStatus = (typeof GROUP_STATUSES)[number];
export const GROUP_SUBSTATUSES = [
  'new',
  'ongoing',
  'regressed',
  'escalating',
  'resolved',
  'resolved_in_release',
  'ignored_forever',
  'ignored_until',
  'ignored_count',
] as const;
export type GroupSubstatus = (typeof GROUP_SUBSTATUSES)[number];

export interface GroupState {
  projectId: string;
  fingerprint: string;
  status: GroupStatus;
  substatus: GroupSubstatus;
  resolvedAt: string | null;
  resolvedInRelease: string | null;
  ignoreUntil: string | null;
  ignoreEventsLeft: number | null;
  regressedAt: string | null;
  regressions: number;
  firstSeen: string | null;
  lastSeen: string | null;
  firstRelease: string;
  lastRelease: string;
  updatedAt: string;
}

export interface Actor {
  kind: 'operator' | 'user' | 'system';
  id: string | null;
  name: string;
}

export const SYSTEM_ACTOR: Actor = { kind: 'system', id: null, name: 'devtrail' };

export interface HistoryEntry {
  at: string;
  actor: Actor;
  action: string;
  fromStatus: string | null;
  toStatus: string;
  details: Record<string, unknown>;
}

/** What a person asks for (the API's triage body). */
export type TriageChange =
  | { action: 'resolve' }
  | { action: 'resolve_in_release'; release: string }
  | { action: 'unresolve' }
  | { action: 'ignore'; untilMs?: number; events?: number };

interface StateRow {
  project_id: string;
  fingerprint: string;
  status: GroupStatus;
  substatus: GroupSubstatus;
  resolved_at: Date | string | null;
  resolved_in_release: string | null;
  ignore_until: Date | string | null;
  ignore_events_left: number | null;
  regressed_at: Date | string | null;
  regressions: number;
  first_seen: Date | string | null;
  last_seen: Date | string | null;
  first_release: string;
  last_release: string;
  updated_at: Date | string;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function toState(r: StateRow): GroupState {
  return {
    projectId: r.project_id,
    fingerprint: r.fingerprint,
    status: r.status,
    substatus: r.substatus,
    resolvedAt: iso(r.resolved_at),
    resolvedInRelease: r.resolved_in_release,
    ignoreUntil: iso(r.ignore_until),
    ignoreEventsLeft: r.ignore_events_left,
    regressedAt: iso(r.regressed_at),
    regressions: r.regressions,
    firstSeen: iso(r.first_seen),
    lastSeen: iso(r.last_seen),
    firstRelease: r.first_release,
    lastRelease: r.last_release,
    updatedAt: iso(r.updated_at)!,
  };
}

/** The state a reader sees: an ignore whose time has passed reads as unresolved. */
export function effectiveStatus(s: Pick<GroupState, 'status' | 'ignoreUntil'>, nowMs = Date.now()): GroupStatus {
  if (s.status === 'ignored' && s.ignoreUntil !== null && Date.parse(s.ignoreUntil) <= nowMs) return 'unresolved';
  return s.status;
}

/** The columns a state change writes, from the change a person asked for. */
export function columnsFor(change: TriageChange, nowMs: number): Partial<Record<string, unknown>> & { status: GroupStatus; substatus: GroupSubstatus } {
  const cleared = { resolved_at: null, resolved_in_release: null, ignore_until: null, ignore_events_left: null };
  switch (change.action) {
    case 'resolve':
      return { ...cleared, status: 'resolved', substatus: 'resolved', resolved_at: new Date(nowMs).toISOString() };
    case 'resolve_in_release':
      return { ...cleared, status: 'resolved', substatus: 'resolved_in_release', resolved_at: new Date(nowMs).toISOString(), resolved_in_release: change.release };
    case 'unresolve':
      return { ...cleared, status: 'unresolved', substatus: 'ongoing' };
    case 'ignore':
      if (change.untilMs !== undefined) return { ...cleared, status: 'ignored', substatus: 'ignored_until', ignore_until: new Date(change.untilMs).toISOString() };
      if (change.events !== undefined) return { ...cleared, status: 'ignored', substatus: 'ignored_count', ignore_events_left: change.events };
      return { ...cleared, status: 'ignored', substatus: 'ignored_forever' };
  }
}

const STATE_COLUMNS =
  'project_id, fingerprint, status, substatus, resolved_at, resolved_in_release, ignore_until, ignore_events_left, regressed_at, regressions, first_seen, last_seen, first_release, last_release, updated_at';

/** Writes a history entry (inside the caller's transaction). */
export async function addHistory(
  tx: SqlExecutor,
  projectId: string,
  fingerprint: string,
  actor: Actor,
  action: string,
  from: string | null,
  to: string,
  details: Record<string, unknown> = {},
) {
  await tx.query(
    `INSERT INTO error_group_history (project_id, fingerprint, actor_kind, actor_id, actor_name, action, from_status, to_status, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [projectId, fingerprint, actor.kind, actor.id, actor.name, action, from, to, JSON.stringify(details)],
  );
}

/** The rows of some groups, locked for update (the consumer's transaction). */
export async function lockStates(tx: SqlExecutor, projectId: string, fingerprints: string[]): Promise<Map<string, GroupState>> {
  if (fingerprints.length === 0) return new Map();
  const rows = await tx.query<StateRow>(
    `SELECT ${STATE_COLUMNS} FROM error_group_states WHERE project_id = $1 AND fingerprint = ANY($2::text[]) ORDER BY fingerprint FOR UPDATE`,
    [projectId, fingerprints],
  );
  return new Map(rows.map((r) => [r.fingerprint, toState(r)]));
}

/** Writes a whole state (inside the caller's transaction): insert or replace. */
export async function saveState(tx: SqlExecutor, s: GroupState): Promise<void> {
  await tx.query(
    `INSERT INTO error_group_states (${STATE_COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, now())
     ON CONFLICT (project_id, fingerprint) DO UPDATE SET
       status = EXCLUDED.status, substatus = EXCLUDED.substatus, resolved_at = EXCLUDED.resolved_at,
       resolved_in_release = EXCLUDED.resolved_in_release, ignore_until = EXCLUDED.ignore_until,
       ignore_events_left = EXCLUDED.ignore_events_left, regressed_at = EXCLUDED.regressed_at,
       regressions = EXCLUDED.regressions, first_seen = EXCLUDED.first_seen, last_seen = EXCLUDED.last_seen,
       first_release = EXCLUDED.first_release, last_release = EXCLUDED.last_release, updated_at = now()`,
    [
      s.projectId,
      s.fingerprint,
      s.status,
      s.substatus,
      s.resolvedAt,
      s.resolvedInRelease,
      s.ignoreUntil,
      s.ignoreEventsLeft,
      s.regressedAt,
      s.regressions,
      s.firstSeen,
      s.lastSeen,
      s.firstRelease,
      s.lastRelease,
    ],
  );
}

/** A state for a group nobody has seen in PostgreSQL yet. */
export function freshState(projectId: string, fingerprint: string): GroupState {
  return {
    projectId,
    fingerprint,
    status: 'unresolved',
    substatus: 'new',
    resolvedAt: null,
    resolvedInRelease: null,
    ignoreUntil: null,
    ignoreEventsLeft: null,
    regressedAt: null,
    regressions: 0,
    firstSeen: null,
    lastSeen: null,
    firstRelease: '',
    lastRelease: '',
    updatedAt: new Date().toISOString(),
  };
}

/** Records when releases were seen (first seen never moves later, last seen never earlier). */
export async function touchReleases(tx: SqlExecutor, projectId: string, seen: Map<string, { first: string; last: string }>): Promise<void> {
  for (const [version, t] of [...seen].sort(([a], [b]) => a.localeCompare(b))) {
    await tx.query(
      `INSERT INTO releases (project_id, version, first_seen, last_seen) VALUES ($1, $2, $3, $4)
       ON CONFLICT (project_id, version) DO UPDATE SET first_seen = LEAST(releases.first_seen, EXCLUDED.first_seen), last_seen = GREATEST(releases.last_seen, EXCLUDED.last_seen)`,
      [projectId, version.slice(0, 200), t.first, t.last],
    );
  }
}

/** When each of some releases was first seen (absent: not seen yet). */
export async function releasesFirstSeen(tx: SqlExecutor, projectId: string, versions: string[]): Promise<Map<string, number>> {
  if (versions.length === 0) return new Map();
  const rows = await tx.query<{ version: string; first_seen: Date | string }>(
    'SELECT version, first_seen FROM releases WHERE project_id = $1 AND version = ANY($2::text[])',
    [projectId, versions],
  );
  return new Map(rows.map((r) => [r.version, new Date(r.first_seen).getTime()]));
}

export function triageRepo(store: RelationalStore) {
  return {
    /** States of some groups; groups without a row are absent (they read as unresolved/new). */
    async states(projectId: string, fingerprints: string[]): Promise<Map<string, GroupState>> {
      if (fingerprints.length === 0) return new Map();
      const rows = await store.query<StateRow>(`SELECT ${STATE_COLUMNS} FROM error_group_states WHERE project_id = $1 AND fingerprint = ANY($2::text[])`, [
        projectId,
        fingerprints,
      ]);
      return new Map(rows.map((r) => [r.fingerprint, toState(r)]));
    },

    /** Fingerprints stored with a status, most recently changed first. */
    async fingerprintsWithStatus(projectId: string, status: GroupStatus, limit: number): Promise<string[]> {
      const rows = await store.query<{ fingerprint: string }>(
        'SELECT fingerprint FROM error_group_states WHERE project_id = $1 AND status = $2 ORDER BY updated_at DESC LIMIT $3',
        [projectId, status, limit],
      );
      return rows.map((r) => r.fingerprint);
    },

    async history(projectId: string, fingerprint: string, limit = 200): Promise<HistoryEntry[]> {
      const rows = await store.query<{
        at: Date | string;
        actor_kind: Actor['kind'];
        actor_id: string | null;
        actor_name: string;
        action: string;
        from_status: string | null;
        to_status: string;
        details: Record<string, unknown> | string;
      }>(
        'SELECT at, actor_kind, actor_id, actor_name, action, from_status, to_status, details FROM error_group_history WHERE project_id = $1 AND fingerprint = $2 ORDER BY at DESC, id DESC LIMIT $3',
        [projectId, fingerprint, limit],
      );
      return rows.map((r) => ({
        at: iso(r.at)!,
        actor: { kind: r.actor_kind, id: r.actor_id, name: r.actor_name },
        action: r.action,
        fromStatus: r.from_status,
        toStatus: r.to_status,
        details: typeof r.details === 'string' ? JSON.parse(r.details) : r.details,
      }));
    },

    /** Applies a person's change to some groups at once, each with its history entry; answers the new states. */
    async change(projectId: string, fingerprints: string[], change: TriageChange, actor: Actor, nowMs = Date.now()): Promise<GroupState[]> {
      const unique = [...new Set(fingerprints)].sort();
      return store.transaction(async (tx) => {
        // Rows for groups the consumer has not recorded yet (seen before it ran), then lock all.
        for (const fp of unique) {
          await tx.query('INSERT INTO error_group_states (project_id, fingerprint) VALUES ($1, $2) ON CONFLICT DO NOTHING', [projectId, fp]);
        }
        const before = await lockStates(tx, projectId, unique);
        const cols = columnsFor(change, nowMs);
        const out: GroupState[] = [];
        for (const fp of unique) {
          const prev = before.get(fp)!;
          const next: GroupState = {
            ...prev,
            status: cols.status,
            substatus: cols.substatus,
            resolvedAt: (cols.resolved_at as string | null) ?? null,
            resolvedInRelease: (cols.resolved_in_release as string | null) ?? null,
            ignoreUntil: (cols.ignore_until as string | null) ?? null,
            ignoreEventsLeft: (cols.ignore_events_left as number | null) ?? null,
          };
          await saveState(tx, next);
          const details: Record<string, unknown> = {};
          if (next.resolvedInRelease) details.release = next.resolvedInRelease;
          if (next.ignoreUntil) details.until = next.ignoreUntil;
          if (next.ignoreEventsLeft !== null) details.events = next.ignoreEventsLeft;
          await addHistory(tx, projectId, fp, actor, change.action, prev.status, next.status, details);
          out.push({ ...next, updatedAt: new Date(nowMs).toISOString() });
        }
        return out;
      });
    },
  };
}

export type TriageRepo = ReturnType<typeof triageRepo>;
