import { z, type AnyZodObject } from 'zod';
import { badRequestBody, COLUMN, DRAIN_PATH, drainBodySchema, drainEntrySchema, ERRORS, EVENT_KINDS, kindRow, KINDS, type EventKind } from '@devtrail/contract';
import { fingerprintHex, MAX_DRAIN_ENTRIES, MAX_ID_LENGTH, MAX_JSON_DEPTH, MAX_LOGS_PER_BATCH, MAX_RELEASE_LENGTH } from '@devtrail/contract';
import { MAX_IDEMPOTENCY_KEY_LENGTH, NDJSON_TYPES, RETRY_AFTER_SECONDS, tooLarge, UNAVAILABLE } from '@devtrail/contract';
import { describeFields, json, type ApiDocs, type ResponseConfig } from '@devtrail/contract/api-docs';

// The OpenAPI documentation of ingest-routes.ts: one path per kind (the kinds table's
// path and request schema) and the Vercel drain. The examples are what the routes
// answer: a kind's success body from its respond(), each 400 from its schema.

const EXAMPLE_ERROR = {
  error_message: "Cannot read properties of undefined (reading 'id')",
  stack_trace: "TypeError: Cannot read properties of undefined (reading 'id')\n    at getUser (/app/src/users.ts:42:13)",
};

/** Per kind: the route's summary and description, a valid request, and the field whose absence makes the 400 example. */
const ROUTES: Record<EventKind, [summary: string, description: string, sample: Record<string, unknown>, required: string]> = {
  log: ['Send a batch of log entries', `1 to ${MAX_LOGS_PER_BATCH} logs; count is the number accepted.`, { logs: [{ level: 'info', message: 'm' }] }, 'logs'],
  error: ['Report one error', 'Answers the error group fingerprint.', EXAMPLE_ERROR, 'stack_trace'],
  span: ['Send one trace span', 'One span per request.', { trace_id: 't', span_id: 's', operation: 'o', start_time: '2025-01-01T00:00:00Z', duration_ms: 1 }, 'trace_id'],
  llm: ['Record one LLM call', 'One usage record per request.', { model: 'm', provider: 'p', operation: 'o', input_tokens: 1, output_tokens: 1, latency_ms: 1 }, 'model'],
};

/** The request bodies as components, annotated; LogBatch's items point at LogEntry. */
function requestBodies({ registry: r }: ApiDocs): Record<EventKind, z.ZodTypeAny> {
  const metadata = `Arbitrary JSON object, nested at most ${MAX_JSON_DEPTH} levels.`;
  const shared = { service: 'Service name.', environment: 'Environment name.', release: `Release identifier, at most ${MAX_RELEASE_LENGTH} characters.` };
  const request = (kind: EventKind) => KINDS[kind].request as unknown as AnyZodObject;
  const body = (name: string, kind: EventKind, notes: Record<string, string>, about: string, schema = request(kind)) =>
    r.register(name, describeFields(schema, { ...shared, ...notes }).openapi({ description: `Body of POST ${KINDS[kind].path} ${about}` }));
  const logs = request('log').shape.logs as z.ZodArray<AnyZodObject>;
  const logEntry = r.register(
    'LogEntry',
    describeFields(logs.element, {
      timestamp: 'ISO 8601 with a Z or an offset; normalised to UTC with milliseconds. Default: the receive time.',
      metadata,
      context: 'Logger context name.',
      release: `Overrides the batch release; at most ${MAX_RELEASE_LENGTH} characters.`,
    }),
  );
  // The batch's own logs array (its min and max kept), with items pointing at LogEntry.
  const batch = request('log').extend({ logs: new z.ZodArray({ ...logs._def, type: logEntry }) });
  const frames = 'Full stack trace. The error type is read from its first line; its top 5 frames feed the fingerprint (docs/fingerprint.md).';
  const int = '>= 0, rounded to an integer.';
  return {
    log: body('LogBatch', 'log', { logs: `1 to ${MAX_LOGS_PER_BATCH} entries.` }, '(spec 2.2).', batch),
    error: body('ErrorReport', 'error', { stack_trace: frames, context: metadata }, '(spec 2.3): one error.'),
    span: body(
      'TraceSpan',
      'span',
      {
        parent_span_id: 'Empty string for root spans.',
        start_time: 'ISO 8601; normalised to UTC with milliseconds.',
        duration_ms: 'Milliseconds, >= 0, rounded to an integer.',
        metadata,
      },
      '(spec 2.4): one span.',
    ),
    llm: body('LlmUsage', 'llm', { input_tokens: int, output_tokens: int, latency_ms: int, cost_usd: 'Estimated cost in US dollars.', metadata }, '(spec 2.5).'),
  };
}

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
      'Body larger than 5 MB (counted after decompression), or larger than a Kafka message once normalised.',
      tooLarge(5 * 1024 * 1024).message,
      rateHeaders,
    ),
    415: errorResponse(
      `A Content-Type other than ${drain ? 'JSON, text/plain or NDJSON' : 'application/json (text/plain included)'} (or none, with a body), or a Content-Encoding other than gzip, x-gzip, deflate or identity.`,
      ERRORS.unsupportedType,
      rateHeaders,
    ),
    429: errorResponse('Rate limit exceeded for this key in the current one-minute window.', ERRORS.rateLimited, retry),
    503: errorResponse(
      `Kafka did not acknowledge within INGEST_ACK_TIMEOUT_MS of the request's arrival, or is failing, or the receiver's queue is full (or, for a request with an Idempotency-Key that is not a UUIDv7, PostgreSQL cannot be reached to read the key's first receive time). The request may or may not have been written: retry after ${RETRY_AFTER_SECONDS} s with the same Idempotency-Key, which makes the retry invisible.`,
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
  const bodies = requestBodies(docs);
  const drainEntry = r.register(
    'VercelDrainEntry',
    drainEntrySchema.openapi({ description: 'One Vercel log drain entry; unknown fields are accepted and ignored. Mapping to a log: docs/api.md#log-drain.' }),
  );
  const drainBody = r.register('VercelDrainBody', drainBodySchema.openapi({ description: `A JSON array of at most ${MAX_DRAIN_ENTRIES} Vercel drain entries.` }));

  // Success bodies (spec 2.8)
  const okCount = r.register('OkCount', z.object({ ok: z.literal(true), count: z.number().int().min(0) }));
  const fingerprint = fingerprintHex.openapi({ description: 'SHA-256, 64 lowercase hex (docs/fingerprint.md).' });
  const okFingerprint = r.register('OkFingerprint', z.object({ ok: z.literal(true), fingerprint }));
  const ok = r.register('Ok', z.object({ ok: z.literal(true) }));
  const success: Record<EventKind, z.ZodTypeAny> = { log: okCount, error: okFingerprint, span: ok, llm: ok };

  for (const kind of EVENT_KINDS) {
    const k = kindRow(kind);
    const [summary, description, sample, required] = ROUTES[kind];
    const { [required]: _, ...incomplete } = sample;
    r.registerPath({
      method: 'post',
      path: k.path,
      tags: ['ingest'],
      summary,
      description: `${description} ${COMPRESSION}`,
      security: [{ apiKey: [] }],
      request: { headers, body: { required: true, ...json(bodies[kind]) } },
      responses: {
        200: {
          description: 'Accepted: durable in Kafka (acks=all) before this answer.',
          headers: docs.rateHeaders,
          ...json(success[kind], k.respond(k.toEvents(k.request.parse(sample), new Date().toISOString()))),
        },
        ...ingestErrors(docs, badRequestBody(k.request.safeParse(incomplete).error?.issues ?? [])),
      },
    });
  }

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
