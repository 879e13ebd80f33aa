import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import {
  drainBodySchema,
  drainEntryToEvent,
  encodeEnvelope,
  errorReportSchema,
  fastLogsToEvents,
  errorToEvent,
  llmToEvent,
  llmUsageSchema,
  logBatchSchema,
  logsToEvents,
  newEnvelope,
  spanSchema,
  spanToEvent,
  type EventDataByKind,
  type EventKind,
  type Topics,
  badRequest,
  badSignature,
  emptyBody,
  parseJsonBody,
} from '@devtrail/contract';
import type { ProduceQueue } from './produce-queue.ts';
import { validDrainSignature } from './drain-signature.ts';

// THE PATH OF AN EVENT (docs/architecture.md): authenticate, origin and rate limit run
// in onRequest (auth/authenticate.ts); then, here, for every kind:
//   validate (zod) -> normalise + fingerprint (contract) -> envelope with event id
//   -> produce to the kind's topic and wait for acks=all -> answer 200.
// Consumers take it from there (services/consumers).

interface IngestRoute<K extends EventKind, B> {
  path: string;
  kind: K;
  schema: ZodType<B, any, any>;
  toEvents(body: B, now: string): Array<EventDataByKind[K]>;
  /** Validates and normalises in one pass without zod; undefined sends the body through `schema` (contract fast-paths.ts). */
  fastEvents?(body: unknown, now: string): Array<EventDataByKind[K]> | undefined;
  respond(events: Array<EventDataByKind[K]>): Record<string, unknown>;
}

const route = <K extends EventKind, B>(r: IngestRoute<K, B>) => r;

export const INGEST_ROUTES = [
  route({ path: '/ingest/logs', kind: 'log', schema: logBatchSchema, toEvents: logsToEvents, fastEvents: fastLogsToEvents, respond: (e) => ({ ok: true, count: e.length }) }),
  route({ path: '/ingest/errors', kind: 'error', schema: errorReportSchema, toEvents: (b, now) => [errorToEvent(b, now)], respond: ([e]) => ({ ok: true, fingerprint: e.fingerprint }) }),
  route({ path: '/ingest/traces', kind: 'span', schema: spanSchema, toEvents: (b) => [spanToEvent(b)], respond: () => ({ ok: true }) }),
  route({ path: '/ingest/llm', kind: 'llm', schema: llmUsageSchema, toEvents: (b, now) => [llmToEvent(b, now)], respond: () => ({ ok: true }) }),
];

export interface IngestDeps {
  topics: Topics;
  queue: ProduceQueue;
  onAccepted?: (kind: EventKind, projectId: string, count: number) => void;
}

export async function produce<K extends EventKind>(deps: IngestDeps, kind: K, projectId: string, now: string, events: Array<EventDataByKind[K]>) {
  const messages = events.map((d) => encodeEnvelope(newEnvelope(kind, projectId, now, d)));
  await deps.queue.enqueue(deps.topics.of(kind), messages);
  deps.onAccepted?.(kind, projectId, events.length);
}

export function registerIngestRoutes(app: FastifyInstance, deps: IngestDeps): void {
  for (const r of INGEST_ROUTES as Array<IngestRoute<EventKind, unknown>>) {
    app.post(r.path, async (request) => {
      const now = new Date().toISOString();
      let events = r.fastEvents?.(request.body, now);
      if (!events) {
        const parsed = r.schema.safeParse(request.body);
        if (!parsed.success) throw parsed.error;
        events = r.toEvents(parsed.data, now);
      }
      await produce(deps, r.kind, request.grant!.projectId, now, events);
      return r.respond(events);
    });
  }
}

const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines'];

function parseDrainBody(request: FastifyRequest, raw: Buffer): unknown {
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  const text = raw.toString('utf8');
  if (text.trim() === '') throw emptyBody();
  try {
    if (NDJSON_TYPES.some((t) => type.startsWith(t))) {
      return text.split('\n').filter((l) => l.trim() !== '').map((l) => parseJsonBody(l));
    }
    return parseJsonBody(text);
  } catch (err) {
    throw badRequest(`Malformed drain body: ${(err as Error).message}`, 'JSON array or NDJSON', 'malformed');
  }
}

/** Vercel log drain: JSON array or NDJSON, optional HMAC-SHA1 signature; entries become logs. */
export function registerDrainRoute(app: FastifyInstance, deps: IngestDeps): void {
  app.register(async (scope) => {
    // The signature covers the raw bytes, so this route keeps the body unparsed.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(['application/json', ...NDJSON_TYPES, 'text/plain'], { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    scope.post('/ingest/drain', async (request) => {
      // No body at all (no Content-Type, or Content-Length: 0) leaves request.body unset.
      const raw = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
      const grant = request.grant!;
      if (grant.drainSecret && !validDrainSignature(raw, grant.drainSecret, request.headers['x-vercel-signature'] as string | undefined)) throw badSignature();
      const parsed = drainBodySchema.safeParse(parseDrainBody(request, raw));
      if (!parsed.success) throw parsed.error;
      const now = new Date().toISOString();
      const events = parsed.data.map(drainEntryToEvent);
      if (events.length > 0) await produce(deps, 'log', grant.projectId, now, events);
      return { ok: true, count: events.length };
    });
  });
}
