import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, httpError, MAX_LOGS_PER_BATCH, toHttpAnswer, type EventKind, type HttpError } from '@devtrail/contract';
import {
  decodeLogsRequest,
  decodeTraceRequest,
  exportResponse,
  mapLogs,
  mapTraces,
  OtlpDecodeError,
  statusResponse,
  OTLP_CONTENT_TYPES,
  type OtlpAnswer,
  type OtlpEncoding,
} from '@devtrail/otlp';
import type { IngestDeps, produce as produceFn } from './ingest-routes.ts';
import { acceptLogs, acceptTraces, type Accepted } from './otlp-records.ts';

// OTLP/HTTP intake (docs/otlp.md). Registered inside the ingest scope, so the same key,
// origin check, rate limit (one request, one count), gzip and body limit apply as for
// /ingest/*; records are validated by the native schemas (otlp-records.ts) and produced
// by the same function, so 200 still means "acknowledged by Kafka".

export const OTLP_PATHS = { logs: '/v1/logs', traces: '/v1/traces', metrics: '/v1/metrics' } as const;

export const METRICS_NOT_SUPPORTED =
  'devtrail does not accept OTLP metrics: send logs to /v1/logs and traces to /v1/traces. Point the metrics exporter elsewhere or turn it off.';

const encodingOf = (request: FastifyRequest): OtlpEncoding =>
  String(request.headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith(OTLP_CONTENT_TYPES.protobuf)
    ? 'protobuf'
    : 'json';

/** The parsed body; no body at all (Content-Length: 0 leaves it unset) is an empty protobuf message, which is valid. */
const bodyOf = (request: FastifyRequest, encoding: OtlpEncoding): unknown => request.body ?? (encoding === 'protobuf' ? Buffer.alloc(0) : undefined);

const send = (reply: FastifyReply, status: number, a: OtlpAnswer) => reply.code(status).type(a.contentType).send(a.body);

/** The human text of any of the receiver's error bodies ({error} or the spec's 400 issues). */
function messageOf(h: HttpError): string {
  const b = h.body as { error?: unknown };
  if (typeof b.error === 'string') return b.error;
  const issues = (b.error as { issues?: Array<{ message?: string; path?: unknown[] }> } | undefined)?.issues;
  if (issues?.length)
    return issues
      .slice(0, 5)
      .map((i) => (i.path?.length ? `${i.path.join('.')}: ${i.message}` : String(i.message)))
      .join('; ');
  return `HTTP ${h.status}`;
}

/** Decodes, turning "not an OTLP message" into the shared 400. */
function decoded<T>(decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    if (err instanceof OtlpDecodeError) throw badRequest(err.message, 'an OTLP protobuf or OTLP/JSON message', 'undecodable body');
    throw err;
  }
}

type Produce = typeof produceFn;

/**
 * Every kind acknowledged before the answer: one 200 covers spans and what they carried.
 * A 5 MB OTLP body can hold far more records than a native log batch; they go out in
 * messages of at most a native batch each, so no message outgrows what /ingest/logs sends.
 */
async function produceAll(produce: Produce, deps: IngestDeps, projectId: string, now: string, accepted: Accepted): Promise<void> {
  const sends: Array<Promise<void>> = [];
  for (const kind of Object.keys(accepted.events) as EventKind[]) {
    const events = accepted.events[kind] as unknown[];
    for (let i = 0; i < events.length; i += MAX_LOGS_PER_BATCH) sends.push(produce(deps, kind, projectId, now, events.slice(i, i + MAX_LOGS_PER_BATCH) as never));
  }
  await Promise.all(sends);
}

export function registerOtlpRoutes(app: FastifyInstance, deps: IngestDeps, produce: Produce): void {
  app.register(async (scope) => {
    // JSON keeps the ingest scope's parser (body.ts); protobuf bodies stay bytes.
    scope.addContentTypeParser(OTLP_CONTENT_TYPES.protobuf, { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

    // OTLP clients expect google.rpc.Status bodies on 4xx/5xx, in the request's encoding;
    // the status codes and Retry-After are the receiver's usual ones (contract http-answer.ts).
    scope.setErrorHandler((err: FastifyError, request, reply) => {
      const h = toHttpAnswer(err, request.routeOptions.bodyLimit);
      if (h.status >= 500 && h.status !== 503) request.log.error({ err }, 'unhandled error');
      else if (h.status === 503) request.log.warn({ err: err.message }, 'answering 503');
      reply.headers(h.headers);
      return send(reply, h.status, statusResponse(h.status, messageOf(h), encodingOf(request)));
    });

    scope.post(OTLP_PATHS.logs, async (request, reply) => {
      const encoding = encodingOf(request);
      const now = new Date().toISOString();
      const accepted = acceptLogs(mapLogs(decoded(() => decodeLogsRequest(bodyOf(request, encoding), encoding))), now);
      await produceAll(produce, deps, request.grant!.projectId, now, accepted);
      deps.counters.onRejected('log', accepted.rejected);
      return send(reply, 200, exportResponse('logs', encoding, accepted.rejected, accepted.reasons.join('; ')));
    });

    scope.post(OTLP_PATHS.traces, async (request, reply) => {
      const encoding = encodingOf(request);
      const now = new Date().toISOString();
      const accepted = acceptTraces(mapTraces(decoded(() => decodeTraceRequest(bodyOf(request, encoding), encoding))), now);
      await produceAll(produce, deps, request.grant!.projectId, now, accepted);
      deps.counters.onRejected('span', accepted.rejected);
      return send(reply, 200, exportResponse('traces', encoding, accepted.rejected, accepted.reasons.join('; ')));
    });

    // 404 is not retried by OTLP exporters (only 429, 502, 503 and 504 are).
    scope.post(OTLP_PATHS.metrics, async () => {
      throw httpError(404, METRICS_NOT_SUPPORTED);
    });
  });
}
