import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ColumnStore } from '@devtrail/column-store';
import { requirePrincipal, type Authenticator } from '../api/access.ts';
import { httpError, projectIdParam, rangeQuery } from '@devtrail/contract';
import { bucketsOf } from './reads/buckets.ts';
import { readErrorActivity } from './reads/error-activity.ts';
import { readLlmModels, readLlmSeries } from './reads/llm-breakdown.ts';
import type { LlmPriceTable } from '@devtrail/config';
import { defaultPrices, withEstimates } from '../api/llm-estimates.ts';

// Reads only the web UI needs (chart series), beside the read API and under the same
// authentication and per-project authorisation. Bounded by time range and bucket count.

const activityQuery = rangeQuery.extend({
  fingerprints: z
    .string()
    .max(65 * 100)
    .transform((s) => s.split(',').filter(Boolean))
    .pipe(z.array(z.string().regex(/^[0-9a-f]{64}$/)).max(100)),
  buckets: z.coerce.number().int().min(2).max(200).default(24),
});
const seriesQuery = rangeQuery.extend({ buckets: z.coerce.number().int().min(2).max(500).default(48) });

export function registerUiApiRoutes(app: FastifyInstance, store: ColumnStore, authenticators: Authenticator[], prices: LlmPriceTable = defaultPrices()): void {
  app.register(async (api) => {
    api.addHook('onRequest', requirePrincipal(authenticators));
    const projectOf = async (params: unknown, can: (id: string) => Promise<boolean>) => {
      const { id } = projectIdParam.parse(params);
      if (!(await can(id))) throw httpError(404, 'Project not found');
      return id;
    };

    api.get('/api/projects/:id/error-activity', async (request) => {
      const id = await projectOf(request.params, request.principal!.canAccess);
      const q = activityQuery.parse(request.query);
      const b = bucketsOf(q, q.buckets);
      return { from: b.fromMs, step_ms: b.stepMs, buckets: b.count, series: await readErrorActivity(store, id, q.fingerprints, b) };
    });

    api.get('/api/projects/:id/llm-breakdown', async (request) => {
      const id = await projectOf(request.params, request.principal!.canAccess);
      const q = seriesQuery.parse(request.query);
      const b = bucketsOf(q, q.buckets);
      const [series, models] = await Promise.all([readLlmSeries(store, id, b), readLlmModels(store, id, b)]);
      return { from: b.fromMs, step_ms: b.stepMs, buckets: b.count, series: withEstimates(series, prices), models: withEstimates(models, prices) };
    });
  });
}
