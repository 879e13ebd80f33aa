import { z } from 'zod';
import { badRequestBody, ERRORS, JSON_TOO_COMPLEX, RETRY_AFTER_SECONDS, tooLarge, UNAVAILABLE } from '@devtrail/http';
import { json, type ApiDocs, type ResponseConfig } from '@devtrail/http/api-docs';
import { COLUMN } from '@devtrail/column-store/store-domain';
import {
  BATCH_PATH,
  batchSchema,
  DRAIN_KIND,
  DRAIN_PATH,
  drainBodySchema,
  drainEntrySchema,
  EVENT_KINDS,
  kindOf,
  KINDS,
  MAX_BATCH_SECTION,
  MAX_DRAIN_ENTRIES,
  MAX_ID_LENGTH,
  NDJSON_TYPES,
  type KindDocs,
} from '@devtrail/kinds';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from './idempotency.ts';

// The OpenAPI documentation of ingest-routes.ts: one path per kind (each kind documents its
// body, libs/kinds/src/<kind>/docs.ts) and the Vercel drain. The examples are what the routes
// answer: a kind's success body from its respond(), each 400 from its schema.

/** Every answer but the 200, as the hooks and handlers of ingest-routes.ts give them. */
function ingestErrors(docs: ApiDocs, example400: unknown, drain = false): Record<string, ResponseConfig> {
  const { rateHeaders, errorResponse } = docs;
  const retry = { ...rateHeaders, 'Retry-After': docs.retryAfter };
  return {
    400: {
      description:
        `Validation failed (including a value the store cannot hold: timestamps not written in the years 1901 to 2298, integers above ${COLUMN.count.max}, ` +
        `non-finite numbers, ids longer than ${MAX_ID_LENGTH} characters), an unusable Idempotency-Key, or the body is empty, malformed JSON (including \`__proto__\` keys) or invalid gzip/deflate.`,
      headers: rateHeaders,
      ...json(docs.validationError, example400),
    },
    401: errorResponse('API key missing, malformed, unknown or revoked.', ERRORS.unauthorized),
    403: errorResponse(
      `Browser request (Origin header) from an origin not in the project's allowed list${drain ? ', or (drain secret set) a missing or wrong x-vercel-signature' : ''}.`,
      { origin: ERRORS.originNotAllowed, ...(drain ? { signature: ERRORS.badSignature } : {}) },
    ),
    413: errorResponse(
      'Body larger than 5 MB (counted after decompression; the decoder stops there), past the JSON structure limits (250,000 objects and arrays, 1,000,000 values, 10,000 keys in one object; checked before parsing), or larger than a Kafka message once normalised.',
      { size: tooLarge(5 * 1024 * 1024).message, structure: JSON_TOO_COMPLEX.containers },
      rateHeaders,
    ),
    415: errorResponse(
      `A Content-Type other than ${drain ? 'JSON, text/plain or NDJSON' : 'application/json (text/plain included)'} (or none, with a body), or a Content-Encoding other than gzip, x-gzip, deflate or identity.`,
      ERRORS.unsupportedType,
      rateHeaders,
    ),
    429: errorResponse('Rate limit exceeded for this key in the current one-minute window.', ERRORS.rateLimited, retry),
    503: errorResponse(
      `Kafka did not acknowledge within INGEST_ACK_TIMEOUT_MS of the request's arrival, or is failing, or the receiver's queue is full (or, for a request with an Idempotency-Key that is not a UUIDv7, PostgreSQL cannot be reached to read the key's first receive time). The request may or may not have been written: retry after ${RETRY_AFTER_SECONDS} s with the same Idempotency-Key, which makes the retry invisible (without one, the same body retried to the same receiver within INGEST_RETRY_WINDOW_MS is stored once too when this 503 came after the request was sent on: docs/api.md).`,
      UNAVAILABLE['message-log'],
      retry,
    ),
  };
}

/**
 * The request headers every ingest route reads. Content-Encoding (gzip, x-gzip, deflate;
 * acceptCompressedBodies in body.ts) is a property of the body, not a parameter a client
 * sets freely, so the operations describe it rather than declare it.
 */
export const ingestHeaders = () =>
  z.object({
    'idempotency-key': z
      .string()
      .min(1)
      .max(MAX_IDEMPOTENCY_KEY_LENGTH)
      .regex(/^[\x21-\x7e]+$/)
      .optional()
      .openapi({
        description:
          'Makes the request safe to retry within 24 hours: any key (a UUID, a ULID, a string), new per request and the same on each retry of it; the retry writes the same event ids and the same times (the request\'s first receive time stands for "now"), so it is never stored twice (docs/api.md). A UUIDv7 key carries that time; for any other key the receivers remember it in PostgreSQL, and answer 503 while PostgreSQL cannot be reached.',
      }),
  });
const COMPRESSION = 'The body may be sent with Content-Encoding gzip, x-gzip or deflate; the 5 MB limit counts decompressed bytes.';

export function documentIngest(docs: ApiDocs) {
  const r = docs.registry;
  const headers = ingestHeaders();
  const drainEntry = r.register(
    'VercelDrainEntry',
    drainEntrySchema.openapi({ description: 'One Vercel log drain entry; unknown fields are accepted and ignored. Mapping to a log: docs/api.md#log-drain.' }),
  );
  const drainBody = r.register('VercelDrainBody', drainBodySchema.openapi({ description: `A JSON array of at most ${MAX_DRAIN_ENTRIES} Vercel drain entries.` }));

  // Success bodies: kinds with the same answer share its component.
  const success = new Map<string, z.ZodTypeAny>();
  const successOf = (d: KindDocs) => success.get(d.success.name) ?? success.set(d.success.name, r.register(d.success.name, d.success.schema())).get(d.success.name)!;
  const okCount = successOf(KINDS[DRAIN_KIND].docs);

  const bodies = new Map<string, z.ZodTypeAny>();
  for (const kind of EVENT_KINDS) {
    const k = kindOf(kind);
    const { summary, description, sample, required } = k.docs;
    const { [required]: _, ...incomplete } = sample;
    const body = k.docs.requestBody(docs);
    bodies.set(kind, body);
    r.registerPath({
      method: 'post',
      path: k.path,
      tags: ['ingest'],
      summary,
      description: `${description} ${COMPRESSION}`,
      security: [{ apiKey: [] }],
      request: { headers, body: { required: true, ...json(body) } },
      responses: {
        200: {
          description: 'Accepted: durable in Kafka (acks=all) before this answer.',
          headers: docs.rateHeaders,
          ...json(successOf(k.docs), k.respond(k.toEvents(k.request.parse(sample), new Date().toISOString()))),
        },
        ...ingestErrors(docs, badRequestBody(k.request.safeParse(incomplete).error?.issues ?? [])),
      },
    });
  }

  documentBatch(docs, bodies);

  r.registerPath({
    method: 'post',
    path: DRAIN_PATH,
    tags: ['ingest'],
    summary: 'Vercel log drain',
    description:
      'Configured in Vercel as a log drain (custom header `Authorization: Bearer <key>`), not called by applications. ' +
      `JSON array (application/json, text/plain) or NDJSON (${NDJSON_TYPES.join(', ')}). ${COMPRESSION} ` +
      'When the project has a drain secret, x-vercel-signature must be the hex HMAC-SHA1 of the raw (decompressed) body. Each entry becomes one log.',
    security: [{ apiKey: [] }],
    request: {
      headers: headers.extend({
        'x-vercel-signature': z.string().optional().openapi({ description: 'Hex HMAC-SHA1 of the body with the drain secret; required when the project has one.' }),
      }),
      body: {
        required: true,
        content: {
          'application/json': { schema: drainBody },
          [NDJSON_TYPES[0]]: { schema: drainEntry.openapi({ description: 'One VercelDrainEntry per line.' }) },
        },
      },
    },
    responses: {
      200: { description: 'Accepted: count logs, durable in Kafka.', headers: docs.rateHeaders, ...json(okCount, { ok: true, count: 2 }) },
      ...ingestErrors(docs, badRequestBody(drainBodySchema.safeParse({}).error?.issues ?? []), true),
    },
  });
  return { name: 'ingest', description: 'Telemetry intake; API key.' };
}

/** POST /ingest/batch: each section's items are what the kind's own route takes (a log entry; a whole body otherwise). */
function documentBatch(docs: ApiDocs, bodies: Map<string, z.ZodTypeAny>) {
  const r = docs.registry;
  const sections = Object.fromEntries(
    EVENT_KINDS.map((kind) => {
      const k = kindOf(kind);
      const body = bodies.get(kind)!;
      const item = k.batchField ? (body as z.AnyZodObject).shape[k.batchField].element : body;
      return [
        k.name,
        z
          .array(item)
          .max(MAX_BATCH_SECTION)
          .optional()
          .openapi({ description: `At most ${MAX_BATCH_SECTION} records, each as ${k.path} takes ${k.batchField ? 'one of its entries' : 'its body'}.` }),
      ];
    }),
  );
  const shared = batchSchema._def.schema.pick({ service: true, environment: true, release: true });
  const component = r.register(
    'IngestBatch',
    shared.extend(sections).openapi({
      description:
        "Records of every kind in one request; the top-level service, environment and release are every record's defaults. At least one record. Each record is checked on its own: one the kind's route would refuse is named in the answer and the others are stored.",
    }),
  );
  const answer = r.register(
    'IngestBatchAnswer',
    z.object({
      ok: z.literal(true),
      count: z.number().int().min(0).openapi({ description: 'Records accepted: durable in Kafka.' }),
      rejected: z.number().int().min(0).openapi({ description: 'Records refused (not stored).' }),
      reasons: z.array(z.string()).optional().openapi({ description: 'Why, for the first five refused records, then how many more.' }),
    }),
  );
  r.registerPath({
    method: 'post',
    path: BATCH_PATH,
    tags: ['ingest'],
    summary: 'Send records of every kind in one request',
    description: `For SDKs that batch (docs/api.md#batch): logs, error reports, spans and LLM records together, one rate-limit count per request. Each record is validated as its own route validates it; refused records do not fail the request. ${COMPRESSION}`,
    security: [{ apiKey: [] }],
    request: { headers: ingestHeaders(), body: { required: true, ...json(component) } },
    responses: {
      200: {
        description: 'Accepted: the accepted records are durable in Kafka (acks=all) before this answer; refused ones are counted and named.',
        headers: docs.rateHeaders,
        ...json(answer, { ok: true, count: 2, rejected: 1, reasons: ['spans 0: duration_ms: Number must be greater than or equal to 0'] }),
      },
      ...ingestErrors(docs, badRequestBody(batchSchema.safeParse({}).error?.issues ?? [])),
    },
  });
}
