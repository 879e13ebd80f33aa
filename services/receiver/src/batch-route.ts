import type { FastifyInstance } from 'fastify';
import { BATCH_PATH, batchSchema, batchUnits, kindOf } from '@devtrail/kinds';
import { acceptUnit, Outcome } from './accept-units.ts';
import { produceAll, received, type IngestDeps } from './accept.ts';
import { boundedSafeParse } from './bounded-parse.ts';

// POST /ingest/batch (docs/api.md#batch): records of every kind in one request. Registered by
// registerIngest in the ingest scope, so steps 1-5 and 9 (key, origin, rate limit: one request,
// one count; decompression, body limit, parsing; counting) are the kinds' routes' own. Here:
// the request's shape (400 as any route), then every record through its kind's schema and
// normaliser on its own (a refused record is named in the answer and the rest goes on, as OTLP's
// partial success), one Kafka message per kind, all acknowledged before the 200.

export function registerBatchRoute(app: FastifyInstance, deps: IngestDeps): void {
  app.post(BATCH_PATH, async (request, reply) => {
    const at = await received(deps, request, reply);
    const parsed = boundedSafeParse(batchSchema, request.body);
    if (!parsed.success) throw parsed.error;
    const out = new Outcome();
    for (const { kind, unit } of batchUnits(parsed.data)) acceptUnit(kind, kindOf(kind), unit, at.defaultsTime, out, true);
    const accepted = out.result();
    await produceAll(deps, request, at, accepted.events);
    deps.counters.onRejectedRecords(accepted.rejectedByKind);
    const count = Object.values(accepted.events).reduce((n, list) => n + (list?.length ?? 0), 0);
    return { ok: true, count, rejected: accepted.rejected, ...(accepted.reasons.length > 0 ? { reasons: accepted.reasons } : {}) };
  });
}
