import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Adapters } from './adapters.ts';
import { ALL_DEPENDENCIES, PROBE_PATHS, registerProbes, type CheckResult, type Dependency, type Readiness } from './readiness.ts';
import { json, sameKeys, type ApiDocs } from '@devtrail/http/api-docs';

// Liveness, readiness and the OpenAPI document of what the service serves, without
// authentication, on every service; and their documentation.

const HEALTH_PATHS = { ...PROBE_PATHS, openapi: '/openapi.json' };

/**
 * `deps`: the backends the service uses, which its readiness checks (docs/operations.md#probes):
 * the receiver all three (the spec's column store, buffer and relational database), the
 * dashboard ClickHouse and PostgreSQL.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  adapters: Adapters,
  openApiDocument: () => Record<string, unknown>,
  deps: readonly Dependency[] = ALL_DEPENDENCIES,
): void {
  registerProbes(app, adapters, deps);
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
      checks: z
        .object({ kafka: check.optional(), clickhouse: check.optional(), postgres: check.optional() })
        .openapi({ description: 'One entry per backend the service uses: the receiver all three, the dashboard ClickHouse and PostgreSQL.' }),
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
    summary: 'Readiness: each backend the service uses (Kafka, ClickHouse, PostgreSQL), checked separately',
    responses: {
      200: { description: 'All of them are up.', ...json(ready) },
      503: { description: 'At least one is down (status "unavailable"; `down` names them).', ...json(ready) },
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
