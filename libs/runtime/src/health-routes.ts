import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Adapters } from './adapters.ts';
import { readiness, type CheckResult, type Readiness } from './readiness.ts';
import { json, sameKeys, type ApiDocs } from '@devtrail/http/api-docs';

// Liveness, readiness and the OpenAPI document of what the service serves, without
// authentication, on every service; and their documentation.

const HEALTH_PATHS = { live: '/health', ready: '/health/ready', openapi: '/openapi.json' };

export function registerHealthRoutes(app: FastifyInstance, adapters: Adapters, openApiDocument: () => Record<string, unknown>): void {
  app.get(HEALTH_PATHS.live, async () => ({ status: 'ok', timestamp: new Date().toISOString() }));
  app.get(HEALTH_PATHS.openapi, async () => openApiDocument());
  app.get(HEALTH_PATHS.ready, async (_req, reply) => {
    const r = await readiness(adapters);
    return reply.code(r.status === 'ok' ? 200 : 503).send(r);
  });
}

export function documentHealth({ registry: r }: ApiDocs) {
  const check = z.object({
    status: z.enum(['up', 'down']),
    kind: z.string().openapi({ description: 'Adapter kind, e.g. kafka or memory, clickhouse or chdb, postgres or pglite.' }),
    latency_ms: z.number().int(),
    error: z.string().optional(),
  });
  const ready = r.register(
    'Readiness',
    z.object({ status: z.enum(['ok', 'unavailable']), timestamp: z.string().datetime(), checks: z.object({ kafka: check, clickhouse: check, postgres: check }) }),
  );
  sameKeys<z.infer<typeof check>, CheckResult>(true);
  sameKeys<z.infer<typeof ready>, Readiness>(true);

  r.registerPath({
    method: 'get',
    path: HEALTH_PATHS.live,
    tags: ['health'],
    summary: 'Liveness',
    responses: { 200: { description: 'The process is up.', ...json(z.object({ status: z.literal('ok'), timestamp: z.string().datetime() })) } },
  });
  r.registerPath({
    method: 'get',
    path: HEALTH_PATHS.ready,
    tags: ['health'],
    summary: 'Readiness: Kafka, ClickHouse and PostgreSQL, each checked separately',
    responses: {
      200: { description: 'All three are up.', ...json(ready) },
      503: { description: 'At least one is down (status "unavailable").', ...json(ready) },
    },
  });
  r.registerPath({
    method: 'get',
    path: HEALTH_PATHS.openapi,
    tags: ['health'],
    summary: 'This document',
    responses: { 200: { description: 'OpenAPI 3.1 document.', ...json(z.object({ openapi: z.string() }).passthrough()) } },
  });
  return { name: 'health', description: 'No authentication.' };
}
