import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { bucketsOf, readsAs, type Buckets, type ColumnStore } from '@devtrail/column-store';
import { readErrorActivity, readErrorServices, readLlmUsage } from '@devtrail/kinds';
import { projectOf, requirePrincipal, type Authenticator } from '../api/access.ts';
import { apiTimeRange, queryInt, rangeQuery } from '../api/api-schemas.ts';
import type { LlmPriceTable } from '@devtrail/config';
import { defaultPrices, pricesOf } from '../api/llm-estimates.ts';
import type { RetentionOf } from '../data/project-retention.ts';
import { noMerges, type MergesOf } from '../api/group-merges.ts';

// Reads only the web UI needs (chart series), beside the read API and under the same
// authentication, per-project authorisation and read limits (the column store applies them to
// every read). Bounded by time range and bucket count; charts are searches: they wait behind lookups.

const activityQuery = rangeQuery.extend({
  fingerprints: z
    .string()
    .max(65 * 100)
    .transform((s) => s.split(',').filter(Boolean))
    .pipe(z.array(z.string().regex(/^[0-9a-f]{64}$/)).max(100)),
  buckets: queryInt(2, 200).default(24),
});
const seriesQuery = rangeQuery.extend({ buckets: queryInt(2, 500).default(48), service: z.string().max(500).optional() });
const axisOf = (b: Buckets) => ({ from: b.fromMs, step_ms: b.stepMs, buckets: b.count });

export function registerUiApiRoutes(
  app: FastifyInstance,
  store: ColumnStore,
  authenticators: Authenticator[],
  retentionOf: RetentionOf,
  prices: LlmPriceTable = defaultPrices(),
  mergesOf: MergesOf = noMerges,
): void {
  const charts = readsAs(store, 'search');
  app.register(async (api) => {
    api.addHook('onRequest', requirePrincipal(authenticators));
    api.get('/api/projects/:id/error-activity', async (request) => {
      const id = await projectOf(request);
      const q = activityQuery.parse(request.query);
      const buckets = bucketsOf(apiTimeRange(q), q.buckets);
      return {
        ...axisOf(buckets),
        series: await readErrorActivity(charts, {
          projectId: id,
          retentionDays: (await retentionOf(id)).error,
          fingerprints: q.fingerprints,
          buckets,
          merges: await mergesOf(id),
        }),
      };
    });

    // The errors list's service picker: the services that reported errors in the range.
    api.get('/api/projects/:id/error-services', async (request) => {
      const id = await projectOf(request);
      const q = rangeQuery.parse(request.query);
      return { services: await readErrorServices(charts, { projectId: id, retentionDays: (await retentionOf(id)).error, range: apiTimeRange(q) }) };
    });

    api.get('/api/projects/:id/llm-breakdown', async (request) => {
      const id = await projectOf(request);
      const q = seriesQuery.parse(request.query);
      const buckets = bucketsOf(apiTimeRange(q), q.buckets);
      const retentionDays = (await retentionOf(id)).llm;
      const lookup = pricesOf(prices);
      const [series, models] = await Promise.all([
        readLlmUsage(charts, {
          projectId: id,
          retentionDays,
          prices: lookup,
          buckets,
          service: q.service,
          by: ['bucket', 'model'],
          measures: ['calls', 'tokens', 'input_tokens', 'output_tokens', 'cost_usd', 'estimated_cost_usd'],
          limit: 20_000,
        }),
        readLlmUsage(charts, { projectId: id, retentionDays, prices: lookup, buckets, service: q.service, by: ['model', 'provider'], costliestFirst: true, limit: 1000 }),
      ]);
      return { ...axisOf(buckets), series, models };
    });
  });
}
