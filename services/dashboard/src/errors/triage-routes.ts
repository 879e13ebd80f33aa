import type { FastifyInstance } from 'fastify';
import type { ColumnStore } from '@devtrail/column-store';
import { membersOf, readErrorGroups, readErrors, readGroupBreakdown, type ErrorGroup, type GroupSort } from '@devtrail/kinds';
import { notFound } from '@devtrail/http';
import {
  effectiveStatus,
  errorGroupsRepo,
  ownershipRepo,
  triageRepo,
  usersRepo,
  type GroupState,
  type RelationalStore,
  type TriageChange,
} from '@devtrail/relational-store';
import { projectOf } from '../api/access.ts';
import { actorOf } from '../api/actor.ts';
import { apiTimeRange, fingerprintParam } from '../api/api-schemas.ts';
import { mergeBody, triageBody, triageListQuery, type TriageBody } from './triage-schemas.ts';
import { mergesLookup } from './group-merges.ts';
import { conflict } from './merge-answers.ts';
import { historyJson, stateJson, type TriagedGroup } from './triage-json.ts';
import type { RetentionOf } from '../data/project-retention.ts';

// Triage (docs/alerts.md, "Triage"): error groups with their state, filtered by it; one
// change applied to one or many groups; a group's history and where it happens. States are
// PostgreSQL's (triage-repo.ts), counts ClickHouse's. triage-docs.ts documents each path.

export const TRIAGE_PATHS = {
  groups: '/api/projects/:id/error-groups/triage',
  group: '/api/projects/:id/error-groups/:fingerprint/triage',
  merge: '/api/projects/:id/error-groups/:fingerprint/merge',
};

/** How many groups a filtered list considers: the most recently seen in the range, or the most recently changed of a status. */
export const TRIAGE_SCAN_LIMIT = 1000;
const CH_IN_CHUNK = 150; // fingerprints per ClickHouse IN list (query parameters travel in the URL)

export function changeOf(b: TriageBody, nowMs: number): TriageChange {
  switch (b.action) {
    case 'resolve':
      return { action: 'resolve' };
    case 'resolve_in_release':
      return { action: 'resolve_in_release', release: b.release! };
    case 'unresolve':
      return { action: 'unresolve' };
    case 'ignore':
      if (b.ignore_minutes !== undefined) return { action: 'ignore', untilMs: nowMs + b.ignore_minutes * 60_000 };
      if (b.ignore_events !== undefined) return { action: 'ignore', events: b.ignore_events };
      return { action: 'ignore' };
  }
}

function matches(filter: string, s: GroupState | undefined, nowMs: number): boolean {
  const status = s ? effectiveStatus(s, nowMs) : 'unresolved';
  const substatus = s ? (status !== s.status ? 'ongoing' : s.substatus) : 'new';
  switch (filter) {
    case 'all':
      return true;
    case 'new':
    case 'regressed':
      return status === 'unresolved' && substatus === filter;
    default:
      return status === filter;
  }
}

export function registerTriageRoutes(app: FastifyInstance, store: ColumnStore, relational: RelationalStore, retentionOf: RetentionOf): void {
  const repo = triageRepo(relational);
  const users = usersRepo(relational);
  const groupsRepo = errorGroupsRepo(relational);
  const mergesOf = mergesLookup(relational);
  const owning = ownershipRepo(relational);

  app.get(TRIAGE_PATHS.groups, async (request) => {
    const projectId = await projectOf(request);
    const q = triageListQuery.parse(request.query);
    const range = apiTimeRange(q);
    const retentionDays = (await retentionOf(projectId)).error;
    const limit = q.limit ?? 100;
    const now = Date.now();
    const seen = { search: q.q, sort: q.sort, merges: await mergesOf(projectId) };
    let groups: ErrorGroup[];
    const me = request.principal?.userId;
    if (q.assigned === 'me' || q.status === 'resolved' || q.status === 'ignored') {
      const fps =
        q.assigned === 'me'
          ? me
            ? await owning.assignedTo(projectId, me, TRIAGE_SCAN_LIMIT)
            : []
          : await repo.fingerprintsWithStatus(projectId, q.status as 'resolved' | 'ignored', TRIAGE_SCAN_LIMIT);
      groups = [];
      for (let i = 0; i < fps.length; i += CH_IN_CHUNK)
        groups.push(
          ...(await readErrorGroups(store, {
            projectId,
            retentionDays,
            range,
            service: q.service,
            environment: q.environment,
            fingerprints: fps.slice(i, i + CH_IN_CHUNK),
            limit: CH_IN_CHUNK,
            ...seen,
          })),
        );
      groups.sort(byOrder(q.sort));
    } else {
      groups = await readErrorGroups(store, {
        projectId,
        retentionDays,
        range,
        service: q.service,
        environment: q.environment,
        limit: q.status === 'all' ? limit : TRIAGE_SCAN_LIMIT,
        ...seen,
      });
    }
    const fps = groups.map((g) => g.fingerprint);
    const [states, assignees] = await Promise.all([repo.states(projectId, fps), owning.assignees(projectId, fps)]);
    const out: TriagedGroup[] = groups
      .filter((g) => matches(q.status, states.get(g.fingerprint), now))
      .slice(0, limit)
      .map((g) => ({ ...g, state: stateJson(states.get(g.fingerprint), now), assignee: assignees.get(g.fingerprint) ?? null }));
    return { groups: out };
  });

  app.post(TRIAGE_PATHS.groups, async (request) => {
    const projectId = await projectOf(request);
    const body = triageBody.parse(request.body);
    const actor = await actorOf(request, users);
    const now = Date.now();
    const changed = await repo.change(projectId, body.fingerprints, changeOf(body, now), actor, now);
    return { groups: changed.map((s) => ({ fingerprint: s.fingerprint, state: stateJson(s, now) })) };
  });

  app.get(TRIAGE_PATHS.group, async (request) => {
    const projectId = await projectOf(request);
    const asked = fingerprintParam.parse(request.params).fingerprint;
    const retentionDays = (await retentionOf(projectId)).error;
    const merges = await mergesOf(projectId);
    const fingerprint = merges.get(asked) ?? asked; // a merged group answers as its target
    const [[group], states, history, breakdown, assignees, members] = await Promise.all([
      readErrorGroups(store, { projectId, retentionDays, fingerprint, merges, range: { fromMs: 0 } }),
      repo.states(projectId, [fingerprint]),
      repo.history(projectId, fingerprint),
      readGroupBreakdown(store, projectId, membersOf(fingerprint, merges)),
      owning.assignees(projectId, [fingerprint]),
      users.membersOf(projectId),
    ]);
    const state = states.get(fingerprint);
    if (!group && !state) throw notFound('Error group');
    const released = breakdown.filter((b) => b.release !== '');
    const byTime = (key: 'first_seen' | 'last_seen', pick: (a: number, b: number) => boolean) =>
      released.reduce<(typeof released)[number] | null>((best, b) => (best === null || pick(Date.parse(b[key]), Date.parse(best[key])) ? b : best), null)?.release ?? '';
    const sum = (key: 'release' | 'environment') => {
      const m = new Map<string, number>();
      for (const b of breakdown) m.set(b[key], (m.get(b[key]) ?? 0) + b.count);
      return [...m].map(([name, count]) => ({ [key]: name, count })).sort((a, b) => b.count - a.count);
    };
    return {
      fingerprint,
      state: stateJson(state),
      first_release: byTime('first_seen', (a, b) => a < b) || state?.firstRelease || '',
      last_release: byTime('last_seen', (a, b) => a > b) || state?.lastRelease || '',
      by_release: sum('release'),
      by_environment: sum('environment'),
      history: history.map(historyJson),
      assignee: assignees.get(fingerprint) ?? null,
      // Whom it can be assigned to: the project's members, enabled.
      assignable: members.filter((m) => !m.disabled).map((m) => ({ id: m.id, name: m.username })),
    };
  });

  // Merging by hand (docs/fingerprint.md#merging-groups): this group into the body's `into`.
  app.post(TRIAGE_PATHS.merge, async (request) => {
    const projectId = await projectOf(request);
    const { fingerprint } = fingerprintParam.parse(request.params);
    const { into } = mergeBody.parse(request.body);
    const actor = await actorOf(request, users);
    const done = await groupsRepo.merge(projectId, fingerprint, into, actor);
    if (!done.ok) throw conflict(done.reason);
    return { fingerprint: done.target, merged: fingerprint };
  });
}

/** The order of a list read in chunks, as readErrorGroups orders one query's rows. */
function byOrder(sort: GroupSort | undefined) {
  const key = (g: ErrorGroup): string | number => (sort === 'events' ? g.range_count : sort === 'users' ? g.users : sort === 'first_seen' ? g.first_seen : g.last_seen);
  return (a: ErrorGroup, b: ErrorGroup) => {
    const [x, y] = [key(a), key(b)];
    return x < y ? 1 : x > y ? -1 : a.fingerprint.localeCompare(b.fingerprint);
  };
}

/** The latest occurrence of a group, or the one asked for among its 200 most recent. */
export async function occurrenceOf(store: ColumnStore, projectId: string, retentionDays: number, fingerprint: string, eventId?: string) {
  const { errors } = await readErrors(store, { projectId, retentionDays, fingerprint, range: { fromMs: 0 }, limit: eventId ? 200 : 1 });
  return eventId ? errors.find((e) => e.event_id === eventId) : errors[0];
}
