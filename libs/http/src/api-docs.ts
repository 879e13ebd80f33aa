import { readFileSync } from 'node:fs';
import { z, type AnyZodObject } from 'zod';
import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig } from '@asteasolutions/zod-to-openapi';

// The OpenAPI documents (docs/openapi.json, GET /openapi.json) are written by each route
// group beside its handlers, as a document…(docs) function that registers its schemas and
// paths; each service lists its groups (its openapi.ts), and the embedded process the
// published union. This module holds what they share: the security schemes, the headers,
// the two error bodies of http-answer.ts, and helpers. Request schemas are only
// annotated, never redefined.

export type { ResponseConfig };
export type ApiDocs = ReturnType<typeof apiDocs>;
/** Documents one route group (registers its schemas and paths) and answers its tag. */
export type DocumentRoutes = (docs: ApiDocs) => { name: string; description: string };
type Ref = { $ref: string };

/** Registers the shared components, in the order the document lists them. */
function apiDocs() {
  extendZodWithOpenApi(z); // idempotent; adds .openapi() to zod's prototypes
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'dt_ + 24 lowercase hex',
    description: "A project's API key: `Authorization: Bearer dt_<24 hex>`. One active key per project.",
  });
  registry.registerComponent('securitySchemes', 'operatorToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator token (DEVTRAIL_OPERATOR_TOKEN; in embedded mode also kept in <data dir>/operator-token).',
  });
  registry.registerComponent('securitySchemes', 'uploadToken', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'dtu_ + 40 lowercase hex',
    description: "A project's upload token (docs/source-maps.md): source map uploads only. Secret: never ship it to browsers.",
  });
  const header = (name: string, description: string) => registry.registerComponent('headers', name, { description, schema: { type: 'integer', minimum: 0 } }).ref;
  const rateHeaders = {
    'X-RateLimit-Limit': header('X-RateLimit-Limit', "Requests allowed per one-minute window for this key (the project's setting, default 5000)."),
    'X-RateLimit-Remaining': header('X-RateLimit-Remaining', 'Requests left in the current window.'),
    'X-RateLimit-Reset': header('X-RateLimit-Reset', 'Seconds until the current window resets.'),
  };
  const retryAfter = header('Retry-After', 'Seconds to wait before retrying.');

  const errorBody = registry.register(
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
  const validationError = registry.register(
    'ValidationError',
    z
      .object({ success: z.literal(false), error: z.object({ issues: z.array(issue), name: z.string().openapi({ example: 'ZodError' }) }) })
      .openapi({ description: "400: zod's safeParse result, serialised." }),
  );
  /** An `{error}` answer (http-answer.ts) with its example, or with several named examples. */
  const errorResponse = (description: string, error: string | Record<string, string>, headers?: Record<string, Ref>): ResponseConfig => {
    const examples =
      typeof error === 'string' ? { example: { error } } : { examples: Object.fromEntries(Object.entries(error).map(([k, e]) => [k, { value: { error: e } }])) };
    return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema: errorBody, ...examples } } };
  };
  registry.registerComponent('responses', HEADERS_TOO_LARGE, {
    description: "The request line and headers together exceed Node.js's 16 KiB limit (a query string that long, say); answered before any route, by Fastify.",
    content: {
      'application/json': {
        schema: { type: 'object', properties: { error: { type: 'string' }, message: { type: 'string' }, statusCode: { type: 'integer' } }, required: ['error'] },
        example: { error: 'Request Header Fields Too Large', message: 'Exceeded maximum allowed HTTP header size', statusCode: 431 },
      },
    },
  });
  return { registry, rateHeaders, retryAfter, validationError, errorResponse };
}

/** Every operation can get it: Node.js answers it before Fastify routes the request. */
const HEADERS_TOO_LARGE = 'RequestHeaderFieldsTooLarge';

const VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

/** devtrail's OpenAPI 3.1 document of the given route groups: each service's own, and the published one of them all (docs/openapi.json). */
export function devtrailOpenApi(groups: DocumentRoutes[]) {
  return openApiDocument(
    {
      info: {
        title: 'devtrail',
        version: VERSION,
        description:
          'Telemetry ingestion (logs, errors, trace spans, LLM usage, Vercel log drains) and the admin and read APIs. ' +
          'Every answer is JSON; an unknown path or method answers 404 `{"error":"Not found: <METHOD> <path>"}` ' +
          '(a browser asking for a page outside the APIs gets the web UI, which says the page is not found). ' +
          'Reference: docs/api.md.',
      },
      servers: [
        { url: 'http://127.0.0.1:3000', description: 'Receiver (PORT). In embedded mode (npm start) every path is served here.' },
        { url: 'http://127.0.0.1:3001', description: 'Dashboard service in distributed mode (DASHBOARD_PORT): /api/* and /health.' },
      ],
    },
    groups,
  );
}

/** The OpenAPI 3.1 document of the given route groups, in their order. */
export function openApiDocument(head: Omit<Parameters<OpenApiGeneratorV31['generateDocument']>[0], 'openapi' | 'tags'>, groups: DocumentRoutes[]) {
  const docs = apiDocs();
  const tags = groups.map((document) => document(docs));
  const doc = new OpenApiGeneratorV31(docs.registry.definitions).generateDocument({ openapi: '3.1.0', ...head, tags });
  for (const path of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(path)) {
      if (op && typeof op === 'object' && 'responses' in op) op.responses['431'] = { $ref: `#/components/responses/${HEADERS_TOO_LARGE}` };
    }
  }
  return doc as unknown as Record<string, unknown>;
}

/** A JSON body of this schema, with an example if given. */
export const json = (schema: z.ZodTypeAny, example?: unknown) => ({ content: { 'application/json': { schema, ...(example === undefined ? {} : { example }) } } });

/** A Fastify route path in OpenAPI's syntax: /api/projects/:id → /api/projects/{id}. */
export const openApiPath = (route: string) => route.replace(/:(\w+)/g, '{$1}');

/** Adds descriptions to some fields of an object schema; validation is unchanged. */
export function describeFields<T extends AnyZodObject>(schema: T, notes: Record<string, string>): T {
  const shape: Record<string, z.ZodTypeAny> = {};
  for (const [field, description] of Object.entries(notes)) {
    const s = schema.shape[field] as z.ZodTypeAny | undefined;
    if (!s) throw new Error(`openapi: no field ${field} to describe`);
    shape[field] = s.openapi({ description });
  }
  return schema.extend(shape) as unknown as T;
}

/** Compile-time guard: a response schema names exactly the fields of the type it documents. */
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
export const sameKeys = <A, B>(ok: SameKeys<A, B>) => ok;
