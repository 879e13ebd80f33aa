import { readFileSync } from 'node:fs';
import { z, type AnyZodObject } from 'zod';
import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';
import {
  drainBodySchema,
  drainEntrySchema,
  errorReportSchema,
  fingerprint,
  llmUsageSchema,
  logBatchSchema,
  logEntrySchema,
  spanSchema,
  MAX_DRAIN_ENTRIES,
  MAX_JSON_DEPTH,
  MAX_LOGS_PER_BATCH,
  MAX_RELEASE_LENGTH,
} from '@devtrail/contract';
import type { ErrorGroup, ErrorRecord, IngestionRate, LlmUsageSummary, LogRecord, SpanRecord } from '@devtrail/column-store';
import type { CheckResult, Readiness } from '@devtrail/runtime';
import {
  createProjectBody,
  drainSecretBody,
  errorsQuery,
  logsQuery,
  originsBody,
  projectIdParam,
  rangeQuery,
  rateLimitBody,
  tracesQuery,
  type ProjectJson,
} from '@devtrail/contract';
import { badRequestBody, COLUMN, ERRORS, MAX_ID_LENGTH, RETRY_AFTER_SECONDS, UNAVAILABLE } from '@devtrail/contract';
import { registerOtlpPaths } from './otlp-openapi.ts';

// The published contract (docs/openapi.json, GET /openapi.json), generated from the
// same zod schemas the receiver validates with. Request schemas are only annotated
// here (descriptions, refs), never redefined; response bodies, which no route
// validates, are written out below and checked against the TypeScript types they mirror.

const VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

/** Compile-time guard: a response schema names exactly the fields of the type it documents. */
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const sameKeys = <A, B>(ok: SameKeys<A, B>) => ok;

/** Adds descriptions to some fields of an object schema; validation is unchanged. */
function describeFields<T extends AnyZodObject>(schema: T, notes: Record<string, string>): T {
  const shape: Record<string, z.ZodTypeAny> = {};
  for (const [field, description] of Object.entries(notes)) {
    const s = schema.shape[field] as z.ZodTypeAny | undefined;
    if (!s) throw new Error(`openapi: no field ${field} to describe`);
    shape[field] = s.openapi({ description });
  }
  return schema.extend(shape) as unknown as T;
}

const json = (schema: z.ZodTypeAny) => ({ content: { 'application/json': { schema } } });

/** A 400 body as zod words it, e.g. for a missing required field (spec section 7). */
const invalidType = (path: string[], expected: string, received: string, message: string) => ({
  success: false,
  error: { issues: [{ code: 'invalid_type', expected, received, path, message }], name: 'ZodError' },
});

const EXAMPLE_ERROR = {
  error_message: "Cannot read properties of undefined (reading 'id')",
  stack_trace: "TypeError: Cannot read properties of undefined (reading 'id')\n    at getUser (/app/src/users.ts:42:13)",
};

let cached: Record<string, unknown> | undefined;

/** The OpenAPI 3.1 document of every HTTP endpoint: ingest, health, admin and read APIs. */
export function buildOpenApiDocument(): Record<string, unknown> {
  if (cached) return structuredClone(cached);
  extendZodWithOpenApi(z); // idempotent; adds .openapi() to zod's prototypes
  const r = new OpenAPIRegistry();

  // --- security -------------------------------------------------------------------
  r.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'dt_ + 24 lowercase hex',
    description: "A project's API key: `Authorization: Bearer dt_<24 hex>`. One active key per project.",
  });
  r.registerComponent('securitySchemes', 'operatorToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator token (DEVTRAIL_OPERATOR_TOKEN; in embedded mode also kept in <data dir>/operator-token).',
  });

  // --- headers --------------------------------------------------------------------
  const header = (name: string, description: string) => r.registerComponent('headers', name, { description, schema: { type: 'integer', minimum: 0 } }).ref;
  const rateHeaders = {
    'X-RateLimit-Limit': header('X-RateLimit-Limit', "Requests allowed per one-minute window for this key (the project's setting, default 5000)."),
    'X-RateLimit-Remaining': header('X-RateLimit-Remaining', 'Requests left in the current window.'),
    'X-RateLimit-Reset': header('X-RateLimit-Reset', 'Seconds until the current window resets.'),
  };
  const retryAfter = header('Retry-After', 'Seconds to wait before retrying.');

  // --- error bodies ---------------------------------------------------------------
  const errorBody = r.register(
    'ErrorMessage',
    z.object({ error: z.string() }).openapi({ description: 'Every non-validation failure: a JSON object with a human-readable `error`.' }),
  );
  const issue = z
    .object({
      code: z.string().openapi({ example: 'invalid_type' }),
      expected: z.string().optional().openapi({ example: 'array' }),
      received: z.string().optional().openapi({ example: 'undefined' }),
      path: z.array(z.union([z.string(), z.number()])).openapi({ example: ['logs'] }),
      message: z.string().openapi({ example: 'Required' }),
    })
    .passthrough()
    .openapi({ description: 'A zod issue. Some codes carry more fields (minimum, maximum, inclusive, options, ...).' });
  const validationError = r.register(
    'ValidationError',
    z
      .object({ success: z.literal(false), error: z.object({ issues: z.array(issue), name: z.string().openapi({ example: 'ZodError' }) }) })
      .openapi({ description: "400: zod's safeParse result, serialised." }),
  );
  const errorResponse = (description: string, message: string, headers?: ResponseConfig['headers']): ResponseConfig => ({
    description,
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema: errorBody, example: { error: message } } },
  });

  // --- request bodies (the receiver's own schemas) --------------------------------
  const metadataNote = `Arbitrary JSON object, nested at most ${MAX_JSON_DEPTH} levels.`;
  const sharedNotes = {
    service: 'Service name.',
    environment: 'Environment name.',
    release: `Release identifier, at most ${MAX_RELEASE_LENGTH} characters.`,
  };
  const logEntry = r.register(
    'LogEntry',
    describeFields(logEntrySchema, {
      timestamp: 'ISO 8601 with a Z or an offset; normalised to UTC with milliseconds. Default: the receive time.',
      metadata: metadataNote,
      context: 'Logger context name.',
      release: `Overrides the batch release; at most ${MAX_RELEASE_LENGTH} characters.`,
    }),
  );
  // The batch's own logs array (its min and max kept), with items pointing at LogEntry.
  const logs = new z.ZodArray({ ...logBatchSchema.shape.logs._def, type: logEntry });
  const logBatch = r.register(
    'LogBatch',
    describeFields(logBatchSchema.extend({ logs }), { ...sharedNotes, logs: `1 to ${MAX_LOGS_PER_BATCH} entries.` }).openapi({
      description: 'Body of POST /ingest/logs (spec 2.2).',
    }),
  );
  const errorReport = r.register(
    'ErrorReport',
    describeFields(errorReportSchema, {
      ...sharedNotes,
      stack_trace: 'Full stack trace. The error type is read from its first line; its top 5 frames feed the fingerprint (docs/fingerprint.md).',
      context: metadataNote,
    }).openapi({ description: 'Body of POST /ingest/errors (spec 2.3): one error.' }),
  );
  const span = r.register(
    'TraceSpan',
    describeFields(spanSchema, {
      ...sharedNotes,
      parent_span_id: 'Empty string for root spans.',
      start_time: 'ISO 8601; normalised to UTC with milliseconds.',
      duration_ms: 'Milliseconds, >= 0, rounded to an integer.',
      metadata: metadataNote,
    }).openapi({ description: 'Body of POST /ingest/traces (spec 2.4): one span.' }),
  );
  const llmUsage = r.register(
    'LlmUsage',
    describeFields(llmUsageSchema, {
      ...sharedNotes,
      input_tokens: '>= 0, rounded to an integer.',
      output_tokens: '>= 0, rounded to an integer.',
      latency_ms: '>= 0, rounded to an integer.',
      cost_usd: 'Estimated cost in US dollars.',
      metadata: metadataNote,
    }).openapi({ description: 'Body of POST /ingest/llm (spec 2.5).' }),
  );
  const drainEntry = r.register(
    'VercelDrainEntry',
    drainEntrySchema.openapi({ description: 'One Vercel log drain entry; unknown fields are accepted and ignored. Mapping to a log: docs/api.md#log-drain.' }),
  );
  const drainBody = r.register('VercelDrainBody', drainBodySchema.openapi({ description: `A JSON array of at most ${MAX_DRAIN_ENTRIES} Vercel drain entries.` }));

  // --- success bodies (spec 2.8) --------------------------------------------------
  const okCount = r.register('OkCount', z.object({ ok: z.literal(true), count: z.number().int().min(0) }));
  const okFingerprint = r.register(
    'OkFingerprint',
    z.object({
      ok: z.literal(true),
      fingerprint: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .openapi({ description: 'SHA-256, 64 lowercase hex (docs/fingerprint.md).' }),
    }),
  );
  const ok = r.register('Ok', z.object({ ok: z.literal(true) }));

  // --- ingest endpoints -----------------------------------------------------------
  const ingestErrors = (example400: unknown, drain = false): Record<string, ResponseConfig> => ({
    400: {
      description:
        'Validation failed (including a value the store cannot hold: timestamps outside ' +
        `${new Date(COLUMN.time.minMs).toISOString()} .. ${new Date(COLUMN.time.maxMs).toISOString()}, integers above ${COLUMN.count.max}, ` +
        `non-finite numbers, ids longer than ${MAX_ID_LENGTH} characters), or the body is empty, malformed JSON (including \`__proto__\` keys) or invalid gzip/deflate.`,
      headers: rateHeaders,
      content: { 'application/json': { schema: validationError, example: example400 } },
    },
    401: errorResponse('API key missing, malformed, unknown or revoked.', ERRORS.unauthorized),
    403: {
      description: `Browser request (Origin header) from an origin not in the project's allowed list${drain ? ', or (drain secret set) a missing or wrong x-vercel-signature' : ''}.`,
      content: {
        'application/json': {
          schema: errorBody,
          examples: {
            origin: { value: { error: ERRORS.originNotAllowed } },
            ...(drain ? { signature: { value: { error: ERRORS.badSignature } } } : {}),
          },
        },
      },
    },
    413: errorResponse('Body larger than 5 MB (counted after gzip decompression).', 'Request body too large (limit 5 MB after decompression)', rateHeaders),
    415: errorResponse(
      `A Content-Type other than ${drain ? 'JSON, text/plain or NDJSON' : 'application/json (text/plain included)'} (or none, with a body), or a Content-Encoding other than gzip, x-gzip, deflate or identity.`,
      ERRORS.unsupportedType,
      rateHeaders,
    ),
    429: errorResponse('Rate limit exceeded for this key in the current one-minute window.', ERRORS.rateLimited, { ...rateHeaders, 'Retry-After': retryAfter }),
    503: errorResponse(`The event log (Kafka) cannot take the event; nothing was stored. Retry after ${RETRY_AFTER_SECONDS} s.`, UNAVAILABLE['message-log'], {
      ...rateHeaders,
      'Retry-After': retryAfter,
    }),
  });
  const gzipHeader = z.object({
    'content-encoding': z
      .enum(['gzip', 'x-gzip', 'deflate', 'identity'])
      .optional()
      .openapi({ description: 'gzip and deflate bodies are accepted; the 5 MB limit applies after decompression.' }),
  });
  const ingest = (path: string, summary: string, description: string, body: z.ZodTypeAny, success: z.ZodTypeAny, example: unknown, required: [string, string]) =>
    r.registerPath({
      method: 'post',
      path,
      tags: ['ingest'],
      summary,
      description,
      security: [{ apiKey: [] }],
      request: { headers: gzipHeader, body: { required: true, ...json(body) } },
      responses: {
        200: {
          description: 'Accepted: durable in Kafka (acks=all) before this answer.',
          headers: rateHeaders,
          content: { 'application/json': { schema: success, example } },
        },
        ...ingestErrors(invalidType([required[0]], required[1], 'undefined', 'Required')),
      },
    });
  ingest('/ingest/logs', 'Send a batch of log entries', `1 to ${MAX_LOGS_PER_BATCH} logs; count is the number accepted.`, logBatch, okCount, { ok: true, count: 1 }, [
    'logs',
    'array',
  ]);
  ingest(
    '/ingest/errors',
    'Report one error',
    'Answers the error group fingerprint.',
    errorReport,
    okFingerprint,
    { ok: true, fingerprint: fingerprint(EXAMPLE_ERROR) },
    ['stack_trace', 'string'],
  );
  ingest('/ingest/traces', 'Send one trace span', 'One span per request.', span, ok, { ok: true }, ['trace_id', 'string']);
  ingest('/ingest/llm', 'Record one LLM call', 'One usage record per request.', llmUsage, ok, { ok: true }, ['model', 'string']);

  registerOtlpPaths(r, { rate: rateHeaders, retryAfter, gzip: gzipHeader });

  r.registerPath({
    method: 'post',
    path: '/ingest/drain',
    tags: ['ingest'],
    summary: 'Vercel log drain',
    description:
      'Configured in Vercel as a log drain (custom header `Authorization: Bearer <key>`), not called by applications. ' +
      'JSON array (application/json, text/plain) or NDJSON (application/x-ndjson, application/ndjson, application/jsonl, application/x-jsonlines); gzip accepted. ' +
      'When the project has a drain secret, x-vercel-signature must be the hex HMAC-SHA1 of the raw (decompressed) body. Each entry becomes one log.',
    security: [{ apiKey: [] }],
    request: {
      headers: gzipHeader.extend({
        'x-vercel-signature': z.string().optional().openapi({ description: 'Hex HMAC-SHA1 of the body with the drain secret; required when the project has one.' }),
      }),
      body: {
        required: true,
        content: {
          'application/json': { schema: drainBody },
          'application/x-ndjson': { schema: drainEntry.openapi({ description: 'One VercelDrainEntry per line.' }) },
        },
      },
    },
    responses: {
      200: {
        description: 'Accepted: count logs, durable in Kafka.',
        headers: rateHeaders,
        content: { 'application/json': { schema: okCount, example: { ok: true, count: 2 } } },
      },
      ...ingestErrors(invalidType([], 'array', 'object', 'Expected array, received object'), true),
    },
  });

  // --- health ---------------------------------------------------------------------
  const check = z.object({
    status: z.enum(['up', 'down']),
    kind: z.string().openapi({ description: 'Adapter kind, e.g. kafka or memory, clickhouse or chdb, postgres or pglite.' }),
    latency_ms: z.number().int(),
    error: z.string().optional(),
  });
  const readiness = r.register(
    'Readiness',
    z.object({
      status: z.enum(['ok', 'unavailable']),
      timestamp: z.string().datetime(),
      checks: z.object({ kafka: check, clickhouse: check, postgres: check }),
    }),
  );
  sameKeys<z.infer<typeof check>, CheckResult>(true);
  sameKeys<z.infer<typeof readiness>, Readiness>(true);

  r.registerPath({
    method: 'get',
    path: '/health',
    tags: ['health'],
    summary: 'Liveness',
    responses: {
      200: { description: 'The process is up.', ...json(z.object({ status: z.literal('ok'), timestamp: z.string().datetime() })) },
    },
  });
  r.registerPath({
    method: 'get',
    path: '/health/ready',
    tags: ['health'],
    summary: 'Readiness: Kafka, ClickHouse and PostgreSQL, each checked separately',
    responses: {
      200: { description: 'All three are up.', ...json(readiness) },
      503: { description: 'At least one is down (status "unavailable").', ...json(readiness) },
    },
  });
  r.registerPath({
    method: 'get',
    path: '/openapi.json',
    tags: ['health'],
    summary: 'This document',
    responses: { 200: { description: 'OpenAPI 3.1 document.', ...json(z.object({ openapi: z.string() }).passthrough()) } },
  });

  // --- admin API ------------------------------------------------------------------
  const project = r.register(
    'Project',
    z.object({
      id: z.string().uuid(),
      name: z.string(),
      key_prefix: z.string().nullable().openapi({ description: 'First characters of the active key ("dt_" + 4 hex), for display.' }),
      key_created_at: z.string().datetime().nullable(),
      allowed_origins: z.array(z.string()).openapi({ description: 'Empty: every origin is allowed.' }),
      rate_limit_per_minute: z.number().int(),
      has_drain_secret: z.boolean(),
      created_at: z.string().datetime(),
    }),
  );
  sameKeys<z.infer<typeof project>, ProjectJson>(true);
  const projectWithKey = r.register(
    'ProjectWithKey',
    z.object({
      project,
      api_key: z
        .string()
        .regex(/^dt_[0-9a-f]{24}$/)
        .openapi({ description: 'The raw key, shown only in this answer.' }),
    }),
  );
  const projectOnly = z.object({ project });

  const idParam = z.object({ id: projectIdParam.shape.id.openapi({ format: 'uuid', description: 'Project id.' }) });
  const apiErrors = (notFound: string | null): Record<string, ResponseConfig> => ({
    400: { description: 'Invalid parameters or body (zod issues).', ...json(validationError) },
    401: errorResponse('Operator token missing or wrong.', 'Missing or invalid operator token or session'),
    ...(notFound ? { 404: errorResponse('Unknown project (or one the caller may not see).', notFound) } : {}),
    503: {
      description: 'A store (PostgreSQL or ClickHouse) is unreachable.',
      headers: { 'Retry-After': retryAfter },
      content: {
        'application/json': {
          schema: errorBody,
          examples: { postgres: { value: { error: UNAVAILABLE['relational-store'] } }, clickhouse: { value: { error: UNAVAILABLE['column-store'] } } },
        },
      },
    },
  });
  const admin = (
    method: 'get' | 'post' | 'put',
    path: string,
    summary: string,
    opts: { params?: boolean; body?: AnyZodObject; ok: z.ZodTypeAny; status?: number; extra?: Record<string, ResponseConfig> },
  ) =>
    r.registerPath({
      method,
      path,
      tags: ['admin'],
      summary,
      security: [{ operatorToken: [] }],
      request: { ...(opts.params ? { params: idParam } : {}), ...(opts.body ? { body: { required: true, ...json(opts.body) } } : {}) },
      responses: { [opts.status ?? 200]: { description: 'OK', ...json(opts.ok) }, ...apiErrors(opts.params ? 'Project not found' : null), ...opts.extra },
    });

  admin('post', '/api/admin/projects', 'Create a project and its first API key', {
    body: describeFields(createProjectBody, { rate_limit_per_minute: 'Requests per minute per key; default RATE_LIMIT_PER_MINUTE (5000).' }),
    ok: projectWithKey,
    status: 201,
    extra: { 403: errorResponse('The caller may not create projects (non-operator sessions).', 'Not allowed to create projects') },
  });
  admin('get', '/api/admin/projects', 'List projects', { ok: z.object({ projects: z.array(project) }) });
  admin('get', '/api/admin/projects/{id}', 'Show a project', { params: true, ok: projectOnly });
  admin('post', '/api/admin/projects/{id}/revoke-key', 'Revoke the active key and issue a new one (the old key stops working at once)', {
    params: true,
    ok: projectWithKey,
  });
  admin('put', '/api/admin/projects/{id}/allowed-origins', 'Replace the allowed origins (empty list: allow all)', {
    params: true,
    body: describeFields(originsBody, {
      origins:
        'Each a host ("example.com"), a wildcard host ("*.example.com", subdomains only) or a full origin ("https://app.example.com:8443"). Stored lower-case without a trailing slash.',
    }),
    ok: projectOnly,
    extra: {
      400: {
        description: 'Invalid body, or an entry that is not a domain or origin (zod issues).',
        content: {
          'application/json': {
            schema: validationError,
            example: badRequestBody([
              {
                code: 'custom',
                expected: 'a host, *.host or an http(s) origin',
                received: 'invalid',
                path: ['origins', 0],
                message: 'Not a domain or origin: http://x/y',
              },
            ]),
          },
        },
      },
    },
  });
  admin('put', '/api/admin/projects/{id}/rate-limit', 'Set the per-key rate limit (requests per minute)', { params: true, body: rateLimitBody, ok: projectOnly });
  admin('put', '/api/admin/projects/{id}/drain-secret', 'Set (or clear with null) the Vercel drain secret', {
    params: true,
    body: describeFields(drainSecretBody, { secret: '8 to 200 characters; null stops signature checks.' }),
    ok: projectOnly,
  });

  // --- read API -------------------------------------------------------------------
  const meta = z.record(z.unknown());
  const logRecord = r.register(
    'LogRecord',
    z.object({
      event_id: z.string().uuid(),
      timestamp: z.string().datetime(),
      received_at: z.string().datetime(),
      level: z.enum(['debug', 'info', 'warn', 'error']),
      service: z.string(),
      environment: z.string(),
      release: z.string(),
      message: z.string(),
      metadata: meta,
      trace_id: z.string(),
      span_id: z.string(),
      request_id: z.string(),
      context: z.string(),
    }),
  );
  const breadcrumbs = z.array(z.object({ type: z.string(), message: z.string(), timestamp: z.string() }));
  const errorRecord = r.register(
    'ErrorRecord',
    z.object({
      event_id: z.string().uuid(),
      timestamp: z.string().datetime(),
      fingerprint: z.string(),
      error_type: z.string(),
      error_message: z.string(),
      stack_trace: z.string(),
      severity: z.enum(['low', 'medium', 'high', 'critical']),
      service: z.string(),
      environment: z.string(),
      release: z.string(),
      context: meta,
      trace_id: z.string(),
      user_id: z.string(),
      breadcrumbs,
    }),
  );
  const latest = z.object({
    event_id: z.string().uuid(),
    error_type: z.string(),
    error_message: z.string(),
    stack_trace: z.string(),
    severity: z.string(),
    service: z.string(),
    release: z.string(),
    environment: z.string(),
  });
  const errorGroup = r.register(
    'ErrorGroup',
    z.object({
      fingerprint: z.string(),
      count: z.number().int().openapi({ description: 'Distinct occurrences (by event id).' }),
      first_seen: z.string().datetime(),
      last_seen: z.string().datetime(),
      max_severity: z.enum(['low', 'medium', 'high', 'critical']),
      latest: latest.openapi({ description: 'The most recent occurrence.' }),
    }),
  );
  const spanRecord = r.register(
    'SpanRecord',
    z.object({
      event_id: z.string().uuid(),
      trace_id: z.string(),
      span_id: z.string(),
      parent_span_id: z.string(),
      operation: z.string(),
      start_time: z.string().datetime(),
      duration_ms: z.number().int(),
      status: z.enum(['ok', 'error']),
      service: z.string(),
      environment: z.string(),
      release: z.string(),
      metadata: meta,
    }),
  );
  const llmSummaryRow = z.object({
    day: z.string().openapi({ example: '2025-01-31' }),
    model: z.string(),
    provider: z.string(),
    service: z.string(),
    calls: z.number().int(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    cost_usd: z.number(),
    latency_p50_ms: z.number(),
    latency_p95_ms: z.number(),
  });
  const llmSummary = r.register(
    'LlmUsageSummary',
    llmSummaryRow.extend({
      estimated_cost_usd: z.number().nullable().openapi({
        description: "From the deployment's price table and the summed tokens, at read time; null for a model the table does not price (docs/otlp.md#llm-cost).",
      }),
    }),
  );
  const ingestionRate = r.register('IngestionRate', z.object({ minute: z.string().datetime(), kind: z.enum(['log', 'error', 'span', 'llm']), events: z.number().int() }));
  sameKeys<z.infer<typeof logRecord>, LogRecord>(true);
  sameKeys<z.infer<typeof errorRecord>, ErrorRecord>(true);
  sameKeys<z.infer<typeof errorGroup>, ErrorGroup>(true);
  sameKeys<z.infer<typeof latest>, ErrorGroup['latest']>(true);
  sameKeys<z.infer<typeof spanRecord>, SpanRecord>(true);
  sameKeys<z.infer<typeof llmSummaryRow>, LlmUsageSummary>(true);
  sameKeys<z.infer<typeof ingestionRate>, IngestionRate>(true);

  const nextCursor = z.string().nullable().openapi({ description: 'Pass as cursor for the next (older) page; null on the last page.' });
  const rangeNote = 'from/to: ISO 8601 with offset, or epoch milliseconds. Default range: the 24 hours before `to` (default now + 60 s). limit: 1..1000, default 100.';
  const read = (path: string, summary: string, query: AnyZodObject | null, ok: z.ZodTypeAny, extraParams?: AnyZodObject, notFound?: string) =>
    r.registerPath({
      method: 'get',
      path,
      tags: ['read'],
      summary,
      description: query ? rangeNote : undefined,
      security: [{ operatorToken: [] }],
      request: { params: extraParams ? idParam.merge(extraParams) : idParam, ...(query ? { query } : {}) },
      responses: {
        200: { description: 'OK', ...json(ok) },
        ...apiErrors('Project not found'),
        ...(notFound ? { 404: errorResponse('Unknown project, or nothing found.', notFound) } : {}),
      },
    });

  read(
    '/api/projects/{id}/logs',
    'Logs, newest first, cursor-paginated',
    describeFields(logsQuery, { level: 'Comma-separated levels, e.g. warn,error.', q: 'Case-insensitive substring of the message.' }),
    z.object({ logs: z.array(logRecord), next_cursor: nextCursor }),
  );
  read(
    '/api/projects/{id}/errors',
    'Error occurrences, newest first, optionally of one group',
    errorsQuery,
    z.object({ errors: z.array(errorRecord), next_cursor: nextCursor }),
  );
  read('/api/projects/{id}/error-groups', 'Error groups seen in the range, most recently seen first', rangeQuery, z.object({ groups: z.array(errorGroup) }));
  read(
    '/api/projects/{id}/error-groups/{fingerprint}',
    'One error group and its 20 most recent occurrences',
    null,
    z.object({ group: errorGroup, recent: z.array(errorRecord) }),
    z.object({ fingerprint: z.string().regex(/^[0-9a-f]{64}$/) }),
    'Error group not found',
  );
  read('/api/projects/{id}/traces', 'Root spans (traces), newest first', tracesQuery, z.object({ traces: z.array(spanRecord) }));
  read(
    '/api/projects/{id}/traces/{traceId}',
    'Every span of one trace, in start order',
    null,
    z.object({ trace_id: z.string(), spans: z.array(spanRecord) }),
    z.object({ traceId: z.string().min(1).max(200) }),
    'Trace not found',
  );
  read('/api/projects/{id}/spans', 'Spans, newest first', tracesQuery, z.object({ spans: z.array(spanRecord) }));
  read('/api/projects/{id}/llm-usage', 'LLM usage per day, model, provider and service', rangeQuery, z.object({ usage: z.array(llmSummary) }));
  read(
    '/api/projects/{id}/ingestion',
    'Stored events per minute and kind, and consumer lag',
    z.object({ minutes: z.coerce.number().int().min(1).max(1440).default(60).openapi({ description: 'Look-back in minutes.' }) }),
    z.object({
      per_minute: z.array(ingestionRate),
      consumers: z
        .array(z.record(z.unknown()))
        .nullable()
        .openapi({ description: 'Per-consumer counters and lag when this process runs the consumers (embedded mode); null otherwise.' }),
    }),
  );

  const doc = new OpenApiGeneratorV31(r.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'devtrail',
      version: VERSION,
      description:
        'Telemetry ingestion (logs, errors, trace spans, LLM usage, Vercel log drains) and the admin and read APIs. ' +
        'Every answer is JSON; an unknown path or method answers 404 `{"error":"Not found: <METHOD> <path>"}`. ' +
        'Reference: docs/api.md.',
    },
    servers: [
      { url: 'http://127.0.0.1:3000', description: 'Receiver (PORT). In embedded mode (npm start) every path is served here.' },
      { url: 'http://127.0.0.1:3001', description: 'Dashboard service in distributed mode (DASHBOARD_PORT): /api/* and /health.' },
    ],
    tags: [
      { name: 'ingest', description: 'Telemetry intake; API key.' },
      { name: 'health', description: 'No authentication.' },
      { name: 'admin', description: 'Projects, keys, origins, limits, drain secrets; operator token.' },
      { name: 'read', description: 'What the dashboard reads; operator token. Every query is bounded by project and time range.' },
    ],
  }) as unknown as Record<string, unknown>;
  cached = doc;
  return structuredClone(doc);
}
