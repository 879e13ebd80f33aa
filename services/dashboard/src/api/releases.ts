import { z } from 'zod';
import { readReleaseHealth, type ReleaseHealth } from '@devtrail/kinds';
import { sameKeys } from '@devtrail/http/api-docs';
import { route, type RouteGroup } from '@devtrail/http/route';
import { projectOf } from './access.ts';
import { apiTimeRange, releaseHealthQuery } from './api-schemas.ts';
import { answers, OPERATOR, PAGED_RANGE_NOTE, projectParams } from './project-route.ts';
import type { ReadDeps } from './read-deps.ts';

// Release health from the sessions (libs/kinds/src/session/).

const releaseHealth = z
  .object({
    release: z.string(),
    sessions: z.number().int().openapi({ description: 'Sessions (a process, a page) that started in the range.' }),
    crashed: z.number().int().openapi({ description: 'Sessions an error nobody handled ended.' }),
    errored: z.number().int().openapi({ description: 'Sessions with an error report that did not crash.' }),
    users: z.number().int().openapi({ description: "Distinct users (the sessions' distinct_id)." }),
    crashed_users: z.number().int().openapi({ description: 'Users with a crashed session.' }),
    crash_free_sessions: z.number().openapi({ description: 'Share of sessions that did not crash, 0..1.' }),
    crash_free_users: z.number().nullable().openapi({ description: 'Share of users none of whose sessions crashed, 0..1; null without users.' }),
    adoption: z.number().openapi({ description: "The release's share of the range's sessions, 0..1." }),
    first_seen: z.string().datetime(),
    crash_free_change: z.number().nullable().openapi({ description: 'crash_free_sessions minus that of the release first seen before it; null for the first.' }),
  })
  .openapi('ReleaseHealth');
sameKeys<z.infer<typeof releaseHealth>, ReleaseHealth>(true);

export const RELEASE_ROUTES: RouteGroup<ReadDeps> = {
  name: 'releases',
  description: 'Release health from sessions; operator token or session.',
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'get',
      path: '/api/projects/:id/releases/health',
      summary: 'Release health: crash-free sessions and users, adoption and the change from the previous release, newest release first',
      description: PAGED_RANGE_NOTE,
      query: releaseHealthQuery,
      notes: { environment: 'Only sessions of this environment.' },
      answers: answers(z.object({ releases: z.array(releaseHealth) })),
      async handle(d, { projectId, query: q }) {
        return {
          releases: await readReleaseHealth(d.reads, {
            projectId,
            retentionDays: (await d.retentionOf(projectId)).session,
            range: apiTimeRange(q),
            environment: q.environment,
          }),
        };
      },
    }),
  ],
};
