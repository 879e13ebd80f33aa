import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, httpError, toHttpAnswer, type HttpError } from '@devtrail/http';
import { bodyDigest, IDEMPOTENCY_HEADER } from './idempotency.ts';
import {
  checkOtlpBudget,
  decodeLogsRequest,
  decodeMetricsRequest,
  decodeTraceRequest,
  exportResponse,
  OtlpDecodeError,
  OtlpTooLargeError,
  statusResponse,
  OTLP_CONTENT_TYPES,
  type OtlpAnswer,
  type OtlpEncoding,
  type OtlpSignal,
} from '@devtrail/otlp';
import { produceAll, received, type IngestDeps } from './accept.ts';
import { acceptOtlp } from './otlp-accept.ts';
import { OTLP_PATHS } from './otlp-paths.ts';

// OTLP/HTTP intake (docs/otlp.md). Registered by registerIngest in the ingest scope
// (ingest-routes.ts), so its steps 1-5 and 9 (key, origin, rate limit: one request, one
// count; decompression, body limit, JSON parsing; counting) are the same as for /ingest/*.
// Here: decode (libs/otlp), map and validate each record with the kinds' own mappings and
// native schemas (otlp-accept.ts, step 6), produce through the shared accept step (step 7:
// one message per request and kind, so 200 still means "acknowledged by Kafka"), and answer
// in OTLP's terms (step 8).

const encodingOf = (request: FastifyRequest): OtlpEncoding =>
  String(request.headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith(OTLP_CONTENT_TYPES.protobuf)
    ? 'protobuf'
    : 'json';

/** The parsed body; no body at all (Content-Length: 0 leaves it unset) is an empty protobuf message, which is valid. */
const bodyOf = (request: FastifyRequest, encoding: OtlpEncoding): unknown => request.body ?? (encoding === 'protobuf' ? Buffer.alloc(0) : undefined);

const send = (reply: FastifyReply, status: number, a: OtlpAnswer) => reply.code(status).type(a.contentType).send(a.body);

/** The human text of any of the receiver's error bodies ({error} or the 400 body's issues). */
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

/**
 * Counts, then decodes: a body past the request limits (libs/otlp budget.ts) is 413 before
 * any of it is decoded; "not an OTLP message" is the shared 400.
 */
function decoded<T>(signal: OtlpSignal, body: unknown, encoding: OtlpEncoding, decode: (body: unknown, encoding: OtlpEncoding) => T): T {
  try {
    checkOtlpBudget(signal, body, encoding);
    return decode(body, encoding);
  } catch (err) {
    // 413 is not retried by exporters: they must send smaller batches.
    if (err instanceof OtlpTooLargeError) throw httpError(413, err.message);
    if (err instanceof OtlpDecodeError) throw badRequest(err.message, 'an OTLP protobuf or OTLP/JSON message', 'undecodable body');
    throw err;
  }
}

/** Each signal's decoder; the kinds that take its records are in libs/kinds. */
const SIGNALS: Record<OtlpSignal, { path: string; decode: (body: unknown, encoding: OtlpEncoding) => unknown }> = {
  logs: { path: OTLP_PATHS.logs, decode: decodeLogsRequest },
  traces: { path: OTLP_PATHS.traces, decode: decodeTraceRequest },
  metrics: { path: OTLP_PATHS.metrics, decode: decodeMetricsRequest },
};

export function registerOtlpRoutes(app: FastifyInstance, deps: IngestDeps): void {
  app.register(async (scope) => {
    // JSON keeps the ingest scope's parser (body.ts); protobuf bodies stay bytes.
    scope.addContentTypeParser(OTLP_CONTENT_TYPES.protobuf, { parseAs: 'buffer' }, (request, body, done) => {
      // As body.ts does for JSON: an Idempotency-Key's event ids are bound to the body they came with.
      if (request.headers[IDEMPOTENCY_HEADER] !== undefined) request.bodyDigest = bodyDigest(body as Buffer);
      done(null, body);
    });

    // OTLP clients expect google.rpc.Status bodies on 4xx/5xx, in the request's encoding;
    // the status codes and Retry-After are the receiver's usual ones (libs/http http-answer.ts).
    scope.setErrorHandler((err: FastifyError, request, reply) => {
      const h = toHttpAnswer(err, request.routeOptions.bodyLimit);
      if (h.status >= 500 && h.status !== 503) request.log.error({ err }, 'unhandled error');
      // Debug, as in http-app.ts: the outage behind it is logged once, by the backend's adapter.
      else if (h.status === 503) request.log.debug({ err: err.message }, 'answering 503');
      reply.headers(h.headers);
      return send(reply, h.status, statusResponse(h.status, messageOf(h), encodingOf(request)));
    });

    for (const [signal, sig] of Object.entries(SIGNALS) as Array<[OtlpSignal, (typeof SIGNALS)[OtlpSignal]]>) {
      scope.post(sig.path, async (request, reply) => {
        const encoding = encodingOf(request);
        const at = await received(deps, request, reply);
        const otlp = decoded(signal, bodyOf(request, encoding), encoding, sig.decode);
        const llmPolicy = deps.policies.of(request.grant!).policy.llm;
        const accepted = acceptOtlp(signal, otlp, at.defaultsTime, { llmAttributes: llmPolicy.metadata_attributes });
        await produceAll(deps, request, at, accepted.events); // one 200 covers every kind the request carried
        deps.counters.onRejectedRecords(accepted.rejectedByKind);
        return send(reply, 200, exportResponse(signal, encoding, accepted.rejected, accepted.reasons.join('; ')));
      });
    }
  });
}
