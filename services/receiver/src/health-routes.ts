import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ALL_DEPENDENCIES, PROBE_PATHS, registerProbes, type Adapters, type CheckResult, type Readiness } from '@devtrail/runtime';
import { json, sameKeys, type ApiDocs } from '@devtrail/contract/api-docs';

// Liveness, readiness and the OpenAPI document, without authentication; and their documentation.

const HEALTH_PATHS = { ...PROBE_PATHS, openapi: '/openapi.json' };

/** The receiver's readiness checks all three backends (the spec's column store, buffer and relational database). */
export function registerHealthRoutes(app: FastifyInstance, adapters: Adapters, openApiDocument: () => Record<string, unknown>): void {
  registerProbes(app, adapters, ALL_DEPENDENCIES);
  app.get(HEALTH_PATHS.openapi, async () => openApiDocument());
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
    z.object({
      status: z.enum(['ok', 'unavailable']),
      timestamp: z.string().datetime(),
      down: z.array(z.enum(['kafka', 'clickhouse', 'postgres'])).openapi({ description: 'The dependencies that are down; empty when ready.' }),
      checks: z.object({ kafka: check.optional(), clickhouse: check.optional(), postgres: check.optional() }),
    }),
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
