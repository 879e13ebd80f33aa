import { z } from 'zod';
import { EVENT_KINDS, readIngestionRates, type EventKind, type IngestionRate } from '@devtrail/kinds';
import { sameKeys } from '@devtrail/http/api-docs';
import { route, type RouteGroup } from '@devtrail/http/route';
import { projectOf } from './access.ts';
import { ingestionQuery } from './api-schemas.ts';
import { answers, OPERATOR, projectParams } from './project-route.ts';
import type { ReadDeps } from './read-deps.ts';

// What was stored per minute and kind, and the consumers' lag (docs/dashboard.md, "Ingestion").

const ingestionRate = z
  .object({ minute: z.string().datetime(), kind: z.enum(EVENT_KINDS as [EventKind, ...EventKind[]]), events: z.number().int() })
  .openapi('IngestionRate');
sameKeys<z.infer<typeof ingestionRate>, IngestionRate>(true);

export const INGESTION_ROUTES: RouteGroup<ReadDeps> = {
  name: 'ingestion',
  description: 'Stored events per minute and kind, and consumer lag; operator token or session.',
  security: OPERATOR,
  params: projectParams,
  projectOf,
  routes: [
    route({
      method: 'get',
      path: '/api/projects/:id/ingestion',
      summary: 'Stored events per minute and kind, and consumer lag',
      query: ingestionQuery,
      notes: { minutes: 'Look-back in minutes.' },
      answers: answers(
        z.object({
          per_minute: z.array(ingestionRate),
          consumers: z
            .array(z.record(z.unknown()))
            .nullable()
            .openapi({ description: 'Per-consumer counters and lag when this process runs the consumers (embedded mode); null otherwise.' }),
        }),
      ),
      async handle(d, { projectId, query: q }) {
        return { per_minute: await readIngestionRates(d.reads, projectId, q.minutes), consumers: d.lagOf ? await d.lagOf().catch(() => null) : null };
      },
    }),
  ],
};
