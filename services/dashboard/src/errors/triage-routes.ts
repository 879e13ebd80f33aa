import { z } from 'zod';
import type { ColumnStore } from '@devtrail/column-store';
import { membersOf, readErrorGroups, readErrors, readGroupBreakdown, type ErrorGroup, type GroupSort } from '@devtrail/kinds';
import { notFound } from '@devtrail/http';
import { route, type RouteGroup } from '@devtrail/http/route';
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
import { answers, OPERATOR, projectAnd, projectParams } from '../api/project-route.ts';
import { actorOf } from '../api/actor.ts';
import { apiTimeRange, fingerprintParam } from '../api/api-schemas.ts';
import { mergeBody, triageBody, triageListQuery, TRIAGE_ACTIONS, type TriageBody } from './triage-schemas.ts';
import type { MergesOf } from './group-merges.ts';
import { conflict, MERGE_REFUSALS } from './merge-answers.ts';
import { historyJson, stateJson, type TriagedGroup } from './triage-json.ts';
import type { RetentionOf } from '../data/project-retention.ts';

// Triage (docs/alerts.md, "Triage"): error groups with their state, filtered by it; one
// change applied to one or many groups; a group's history and where it happens. States are
// PostgreSQL's (triage-repo.ts), counts ClickHouse's. Each route is declared once (libs/http route.ts).

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

export interface TriageDeps {
  reads: ColumnStore;
  relational: RelationalStore;
  retentionOf: RetentionOf;
  mergesOf: MergesOf;
}

const state = z
  .object({
    status: z.enum(['unresolved', 'resolved', 'ignored']),
    substatus: z.string().openapi({ description: 'new, ongoing, regressed, escalating, resolved, resolved_in_release, ignored_forever, ignored_until, ignored_count' }),
    resolved_at: z.string().datetime().nullable(),
    resolved_in_release: z.string().nullable(),
    ignore_until: z.string().datetime().nullable(),
    ignore_events_left: z.number().int().nullable(),
    regressed_at: z.string().datetime().nullable(),
    regressions: z.number().int(),
    first_release: z.string(),
    last_release: z.string(),
    updated_at: z.string().datetime().nullable(),
  })
  .openapi('GroupState');
const person = z.object({ id: z.string().uuid(), name: z.string() });
const history = z.object({
  at: z.string().datetime(),
  actor: z.object({ kind: z.enum(['operator', 'user', 'system']), id: z.string().nullable(), name: z.string() }),
  action: z
    .string()
    .openapi({ description: `${TRIAGE_ACTIONS.join(', ')}, merge, assign, unassign, or the consumer's first_seen, regression, ignore_expired, ignore_count_reached` }),
  from_status: z.string().nullable(),
  to_status: z.string(),
  details: z.record(z.unknown()),
});
const triagedGroup = z.object({
  fingerprint: z.string(),
  count: z.number().int(),
  first_seen: z.string().datetime(),
  last_seen: z.string().datetime(),
  max_severity: z.string(),
  latest: z.record(z.unknown()),
  state,
  assignee: person.nullable(),
});

export const TRIAGE_ROUTES: RouteGroup<TriageDeps> = {
  name: 'triage',
  description: 'Act on errors: triage states and merges (docs/alerts.md); operator token or session.',
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'get',
      path: TRIAGE_PATHS.groups,
      summary: 'Error groups with their triage state, filtered by it',
      query: triageListQuery,
      answers: answers(z.object({ groups: z.array(triagedGroup) })),
      async handle(d, { projectId, query: q }, request) {
        const repo = triageRepo(d.relational);
        const owning = ownershipRepo(d.relational);
        const range = apiTimeRange(q);
        const retentionDays = (await d.retentionOf(projectId)).error;
        const limit = q.limit ?? 100;
        const now = Date.now();
        const seen = { search: q.q, sort: q.sort, merges: await d.mergesOf(projectId) };
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
              ...(await readErrorGroups(d.reads, {
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
          groups = await readErrorGroups(d.reads, {
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
      },
    }),
    route({
      method: 'post',
      path: TRIAGE_PATHS.groups,
      summary: 'Resolve, resolve in a release, unresolve or ignore one or many groups',
      body: triageBody,
      answers: answers(z.object({ groups: z.array(z.object({ fingerprint: z.string(), state })) })),
      async handle(d, { projectId, body }, request) {
        const actor = await actorOf(request, usersRepo(d.relational));
        const now = Date.now();
        const changed = await triageRepo(d.relational).change(projectId, body.fingerprints, changeOf(body, now), actor, now);
        return { groups: changed.map((s) => ({ fingerprint: s.fingerprint, state: stateJson(s, now) })) };
      },
    }),
    route({
      method: 'get',
      path: TRIAGE_PATHS.group,
      summary: "A group's state, history, assignee, first and last release, counts by release and environment",
      params: projectAnd(fingerprintParam),
      answers: answers(
        z.object({
          fingerprint: z.string(),
          state,
          first_release: z.string(),
          last_release: z.string(),
          by_release: z.array(z.object({ release: z.string(), count: z.number().int() })),
          by_environment: z.array(z.object({ environment: z.string(), count: z.number().int() })),
          history: z.array(history),
          assignee: person.nullable(),
          assignable: z.array(person).openapi({ description: "The project's members, enabled: whom it can be assigned to." }),
        }),
        (docs) => ({ 404: docs.errorResponse('Unknown project, or nothing found.', notFound('Error group').message) }),
      ),
      async handle(d, { projectId, params }) {
        const repo = triageRepo(d.relational);
        const retentionDays = (await d.retentionOf(projectId)).error;
        const merges = await d.mergesOf(projectId);
        const fingerprint = merges.get(params.fingerprint) ?? params.fingerprint; // a merged group answers as its target
        const [[group], states, history, breakdown, assignees, members] = await Promise.all([
          readErrorGroups(d.reads, { projectId, retentionDays, fingerprint, merges, range: { fromMs: 0 } }),
          repo.states(projectId, [fingerprint]),
          repo.history(projectId, fingerprint),
          readGroupBreakdown(d.reads, projectId, membersOf(fingerprint, merges)),
          ownershipRepo(d.relational).assignees(projectId, [fingerprint]),
          usersRepo(d.relational).membersOf(projectId),
        ]);
        const state = states.get(fingerprint);
        if (!group && !state) throw notFound('Error group');
        const released = breakdown.filter((b) => b.release !== '');
        const byTime = (key: 'first_seen' | 'last_seen', pick: (a: number, b: number) => boolean) =>
          released.reduce<(typeof released)[number] | null>((best, b) => (best === null || pick(Date.parse(b[key]), Date.parse(best[key])) ? b : best), null)?.release ??
          '';
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
          assignable: members.filter((m) => !m.disabled).map((m) => ({ id: m.id, name: m.username })),
        };
      },
    }),
    // Merging by hand (docs/fingerprint.md#merging-groups): this group into the body's `into`.
    route({
      method: 'post',
      path: TRIAGE_PATHS.merge,
      summary: "Merge this group into another: its events, stored and to come, its history, comments and assignee become the target's",
      params: projectAnd(fingerprintParam),
      body: mergeBody,
      answers: answers(
        z.object({ fingerprint: z.string().openapi({ description: 'The group it was merged into (the end of any chain).' }), merged: z.string() }),
        (docs) => ({
          409: docs.errorResponse('The groups are one already, this one was merged before, or the project has too many merges.', MERGE_REFUSALS.already_merged),
        }),
      ),
      async handle(d, { projectId, params, body }, request) {
        const actor = await actorOf(request, usersRepo(d.relational));
        const done = await errorGroupsRepo(d.relational).merge(projectId, params.fingerprint, body.into, actor);
        if (!done.ok) throw conflict(done.reason);
        return { fingerprint: done.target, merged: params.fingerprint };
      },
    }),
  ],
};

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
