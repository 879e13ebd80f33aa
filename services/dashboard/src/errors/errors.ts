import { z } from 'zod';
import {
  KINDS,
  membersOf,
  readErrorActivity,
  readErrorGroups,
  readErrorServices,
  readErrors,
  readGroupChart,
  readGroupReleases,
  readGroupTags,
  readGroupUsers,
  severities,
  type ErrorGroup,
} from '@devtrail/kinds';
import { notFound } from '@devtrail/http';
import { sameKeys } from '@devtrail/http/api-docs';
import { route, type RouteGroup } from '@devtrail/http/route';
import { projectOf } from '../api/access.ts';
import { bucketsOf } from '@devtrail/column-store';
import { apiTimeRange, errorsQuery, fingerprintParam, queryInt, rangeQuery, rangeOnlyQuery } from '../api/api-schemas.ts';
import { errorGroupsQuery } from '../api/explore-schemas.ts';
import { answers, OPERATOR, PAGED_RANGE_NOTE, projectAnd, projectParams, RANGE_NOTE } from '../api/project-route.ts';
import type { ReadDeps } from '../api/read-deps.ts';
import { AXIS, axisOf, NEXT_CURSOR, SEARCH_NOTE } from '../api/read-notes.ts';

// Errors as they are read: occurrences, groups and one group's page (libs/kinds/src/error/).
// Triage (states, merges, alerts) is the act-on-errors API beside it.

const errorRecord = KINDS.error.record.openapi(KINDS.error.docs.recordName);
const latest = z.object({
  event_id: z.string().uuid(),
  error_type: z.string(),
  error_message: z.string(),
  stack_trace: z.string(),
  severity: z.string(),
  service: z.string(),
  release: z.string(),
  environment: z.string(),
});
const errorGroup = z
  .object({
    fingerprint: z.string(),
    count: z.number().int().openapi({ description: 'Distinct occurrences (by event id) over the retention.' }),
    range_count: z.number().int().openapi({ description: 'Distinct occurrences in the range asked for that match the search and filters.' }),
    users: z.number().int().openapi({ description: 'Distinct user ids (user_id; OTLP enduser.id) among those occurrences.' }),
    first_seen: z.string().datetime(),
    last_seen: z.string().datetime(),
    max_severity: z.enum(severities),
    latest: latest.openapi({ description: 'The most recent occurrence.' }),
  })
  .openapi('ErrorGroup');
sameKeys<z.infer<typeof errorGroup>, ErrorGroup>(true);
sameKeys<z.infer<typeof latest>, ErrorGroup['latest']>(true);
const tag = z
  .object({
    key: z.string().openapi({ description: 'release, environment, service, browser, os, or context.<key>.' }),
    values: z.array(z.object({ value: z.string(), count: z.number().int() })).openapi({ description: 'The 10 most frequent values, by distinct occurrences.' }),
  })
  .openapi('ErrorGroupTag');

const activityQuery = rangeOnlyQuery.extend({
  // The pattern is the document's, so a list it allows is one the route takes (at most 100 fit).
  fingerprints: z
    .string()
    .max(65 * 100)
    .regex(/^,*([0-9a-f]{64}(,+|$))*$/, 'comma-separated fingerprints (64 lowercase hex)')
    .transform((s) => s.split(',').filter(Boolean))
    .pipe(z.array(z.string()).max(100)),
  buckets: queryInt(2, 200).default(24),
});

const errorsKept = async (d: ReadDeps, projectId: string) => (await d.retentionOf(projectId)).error;

export const ERROR_ROUTES: RouteGroup<ReadDeps> = {
  name: 'errors',
  description: 'Errors as read: occurrences, groups and a group’s page; operator token or session.',
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'get',
      path: '/api/projects/:id/errors',
      summary: 'Error occurrences, newest first, optionally of one group or one trace',
      description: PAGED_RANGE_NOTE,
      query: errorsQuery,
      notes: { trace_id: 'Only occurrences reported with this trace id.', has_trace: 'true: only occurrences reported with a trace id.' },
      answers: answers(z.object({ errors: z.array(errorRecord), next_cursor: NEXT_CURSOR })),
      async handle(d, { projectId, query: q }) {
        const r = await readErrors(d.reads, {
          projectId,
          retentionDays: await errorsKept(d, projectId),
          // a group's occurrences include those of the groups merged into it
          fingerprints: q.fingerprint ? membersOf(q.fingerprint, await d.mergesOf(projectId)) : undefined,
          traceId: q.trace_id,
          hasTrace: q.has_trace === 'true',
          range: apiTimeRange(q),
          cursor: q.cursor,
          limit: q.limit,
        });
        return { errors: r.errors, next_cursor: r.nextCursor };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/error-groups',
      summary: 'Error groups with an occurrence in the range, most recently seen first (or by sort)',
      description: PAGED_RANGE_NOTE,
      query: errorGroupsQuery,
      notes: {
        service: 'Groups with an occurrence of this service in the range.',
        environment: 'Groups with an occurrence in this environment.',
        q: `Groups with an occurrence matching this search, in the logs' syntax over the errors' fields (docs/dashboard.md, "Errors"). ${SEARCH_NOTE}`,
        sort: 'last_seen (default), first_seen, events (range_count), users: largest first.',
      },
      answers: answers(z.object({ groups: z.array(errorGroup) })),
      async handle(d, { projectId, query: q }) {
        return {
          groups: await readErrorGroups(d.reads, {
            projectId,
            retentionDays: await errorsKept(d, projectId),
            range: apiTimeRange(q),
            service: q.service,
            environment: q.environment,
            search: q.q,
            sort: q.sort,
            merges: await d.mergesOf(projectId),
            limit: q.limit,
          }),
        };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/error-groups/:fingerprint',
      summary: 'One error group: counts, users, tags, releases, its chart and its 20 most recent occurrences (a merged group answers as its target)',
      description: PAGED_RANGE_NOTE,
      params: projectAnd(fingerprintParam),
      query: rangeQuery.pick({ from: true, to: true }),
      notes: { from: "The chart's start (default: the group's first seen)." },
      answers: answers(
        z.object({
          group: errorGroup,
          merged: z.array(z.string()).openapi({ description: 'Fingerprints merged into this group by hand (docs/fingerprint.md).' }),
          tags: z.array(tag),
          releases: z.array(z.object({ release: z.string(), count: z.number().int(), first_seen: z.string().datetime(), last_seen: z.string().datetime() })).openapi({
            description: 'Every release it was seen in (up to 200), by first seen.',
          }),
          chart: z
            .object({ from: z.string().datetime(), step_ms: z.number().int(), counts: z.array(z.number().int()) })
            .openapi({ description: 'Distinct occurrences per step over the range (48 steps at most).' }),
          recent: z.array(errorRecord),
          top_users: z
            .array(z.object({ user_id: z.string(), count: z.number().int(), last_seen: z.string().datetime() }))
            .openapi({ description: 'The 10 users with the most occurrences, with when each last met it.' }),
          next_cursor: NEXT_CURSOR.openapi({
            description: "For the next page of occurrences: GET /errors with this fingerprint, from the group's first_seen, and this cursor.",
          }),
        }),
        (docs) => ({ 404: docs.errorResponse('Unknown project, or nothing found.', notFound('Error group').message) }),
      ),
      async handle(d, { projectId, params, query: q }) {
        const retentionDays = await errorsKept(d, projectId);
        const merges = await d.mergesOf(projectId);
        // A group merged into another is read as that one (its answer names the target).
        const fingerprint = merges.get(params.fingerprint) ?? params.fingerprint;
        const [group] = await readErrorGroups(d.reads, { projectId, retentionDays, fingerprint, merges, range: { fromMs: 0 } });
        if (!group) throw notFound('Error group');
        const scope = { projectId, retentionDays, fingerprints: membersOf(group.fingerprint, merges) };
        const [recent, tags, releases, chart, topUsers] = await Promise.all([
          readErrors(d.reads, { ...scope, range: { fromMs: Date.parse(group.first_seen) }, limit: 20 }),
          readGroupTags(d.reads, scope),
          readGroupReleases(d.reads, scope),
          readGroupChart(d.reads, { ...scope, range: { fromMs: q.from ?? Date.parse(group.first_seen), toMs: q.to } }),
          readGroupUsers(d.reads, scope),
        ]);
        return { group, merged: scope.fingerprints.slice(1), tags, releases, chart, recent: recent.errors, top_users: topUsers, next_cursor: recent.nextCursor };
      },
    }),
    route({
      method: 'get',
      path: '/api/projects/:id/error-activity',
      summary: "Some groups' occurrences per time bucket (the errors list's sparklines)",
      description: RANGE_NOTE,
      query: activityQuery,
      notes: { fingerprints: 'Comma-separated group fingerprints, at most 100.', buckets: 'Buckets over the range, 2 to 200 (default 24).' },
      answers: answers(
        z.object({
          ...AXIS,
          series: z
            .record(z.array(z.number().int()))
            .openapi({ description: 'Per fingerprint asked for: distinct occurrences per bucket (a merged group counts its members).' }),
        }),
      ),
      async handle(d, { projectId, query: q }) {
        const buckets = bucketsOf(apiTimeRange(q), q.buckets);
        const series = await readErrorActivity(d.searches, {
          projectId,
          retentionDays: await errorsKept(d, projectId),
          fingerprints: q.fingerprints,
          buckets,
          merges: await d.mergesOf(projectId),
        });
        return { ...axisOf(buckets), series };
      },
    }),
    // The errors list's service picker.
    route({
      method: 'get',
      path: '/api/projects/:id/error-services',
      summary: 'The services that reported errors in the range',
      description: PAGED_RANGE_NOTE,
      query: rangeQuery,
      answers: answers(z.object({ services: z.array(z.string()) })),
      async handle(d, { projectId, query: q }) {
        return { services: await readErrorServices(d.searches, { projectId, retentionDays: await errorsKept(d, projectId), range: apiTimeRange(q) }) };
      },
    }),
  ],
};
