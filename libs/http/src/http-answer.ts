import { ZodError, type ZodIssue } from 'zod';
import { Failure, LimitReached, type Backend } from '@devtrail/failures';

// The one mapping from any thrown value to the HTTP answer a client gets, used by the
// receiver and the dashboard alike. Bodies of the documented statuses are docs/api.md's; every
// 400 is the zod-shaped body built by badRequestBody; the rest are {error: "..."}.

export const RETRY_AFTER_SECONDS = 5;

/** The 400 body (docs/api.md): what zod v3's safeParse result looks like once serialised. */
export interface ValidationErrorBody {
  success: false;
  error: { issues: unknown[]; name: string };
}

/** A zod-like issue for a problem found outside a schema (an unreadable body, a bad entry). */
export interface Issue {
  code: string;
  expected?: string;
  received?: string;
  path: Array<string | number>;
  message: string;
  [more: string]: unknown;
}

/** Every 400 body is built here. */
export function badRequestBody(issues: ReadonlyArray<ZodIssue | Issue>): ValidationErrorBody {
  return { success: false, error: { issues: [...issues], name: 'ZodError' } };
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.error === 'string' ? body.error : `HTTP ${status}`);
  }
}

/** A 400 for a problem with the body as a whole (empty, not JSON, not gzip, ...). */
export const badRequest = (message: string, expected: string, received: string, path: Array<string | number> = []) =>
  new HttpError(400, badRequestBody([{ code: 'custom', expected, received, path, message }]) as unknown as Record<string, unknown>);

/** Every non-400 refusal: a status and a human-readable `error`. */
export const httpError = (status: number, error: string, headers?: Record<string, string>) => new HttpError(status, { error }, headers);

export const ERRORS = {
  unauthorized: 'Missing or invalid API key',
  originNotAllowed: 'Origin not allowed',
  badSignature: 'Invalid drain signature',
  rateLimited: 'Rate limit exceeded',
  unsupportedType: 'Unsupported Content-Type: send application/json',
  missingType: 'Missing Content-Type: send application/json',
  unsupportedEncoding: 'Unsupported Content-Encoding: send gzip, deflate or an uncompressed body',
  internal: 'Internal server error',
  noPrincipal: 'Missing or invalid operator token or session',
  cannotCreateProjects: 'Not allowed to create projects',
  readOnly: 'This account can only read (viewer)',
} as const;

/** What a 503 says, by the backend that is out. */
export const UNAVAILABLE: Record<Backend, string> = {
  'message-log': 'Ingestion temporarily unavailable: the event log cannot accept writes. Retry later.',
  'relational-store': 'Temporarily unavailable: the project database cannot be reached. Retry later.',
  'column-store': 'Column store unavailable, retry later',
};

export const unauthorized = () => httpError(401, ERRORS.unauthorized);
export const originNotAllowed = () => httpError(403, ERRORS.originNotAllowed);
export const badSignature = () => httpError(403, ERRORS.badSignature);
export const notFound = (what: string) => httpError(404, `${what} not found`);
/** The body of a 404 for a path no route serves. */
export const routeNotFoundBody = (method: string, url: string) => ({ error: `Not found: ${method} ${url.split('?')[0].slice(0, 200)}` });
export const rateLimited = (retryAfter: number) => httpError(429, ERRORS.rateLimited, { 'retry-after': String(retryAfter) });
export const unsupportedEncoding = () => httpError(415, ERRORS.unsupportedEncoding);
export const unavailable = (backend: Backend = 'message-log') => httpError(503, UNAVAILABLE[backend], { 'retry-after': String(RETRY_AFTER_SECONDS) });

export const tooLarge = (limitBytes?: number, countedAs = 'counted after decompression') =>
  httpError(413, limitBytes ? `Request body too large (limit ${limitBytes} bytes, ${countedAs})` : 'Request body too large');

export const emptyBody = () => badRequest('Request body is empty', 'JSON body', 'empty body');
export const malformedJson = (detail: string) => badRequest(`Malformed JSON body: ${detail}`, 'valid JSON', 'malformed JSON');
export const notCompressed = (encoding: string) => badRequest(`Body is not valid ${encoding}`, `${encoding} data`, `invalid ${encoding}`);

/** A decompression failure: zlib's error, tagged by the request's decoder with its Content-Encoding. */
export interface DecompressError extends Error {
  code: string;
  encoding?: string;
}

// Fastify's own error codes for what goes wrong before a handler runs.
const FASTIFY_CODES: Record<string, (err: Error) => HttpError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => httpError(415, ERRORS.unsupportedType),
  FST_ERR_CTP_EMPTY_TYPE: () => httpError(415, ERRORS.missingType),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => emptyBody(),
  FST_ERR_CTP_INVALID_JSON_BODY: (e) => malformedJson(e.message),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => badRequest('Content-Length does not match the body', 'matching Content-Length', 'mismatch'),
  FST_ERR_BAD_URL: () => httpError(400, 'Malformed URL'),
  FST_ERR_ASYNC_CONSTRAINT: () => httpError(400, 'Bad request'),
};

/** Classifies any thrown value into the answer the client gets. */
export function toHttpAnswer(err: unknown, bodyLimitBytes?: number): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof ZodError) return new HttpError(400, badRequestBody(err.issues) as unknown as Record<string, unknown>);
  if (err instanceof LimitReached)
    return err.retryable ? httpError(503, err.message, { 'retry-after': String(RETRY_AFTER_SECONDS) }) : badRequest(err.message, err.issue.expected, err.issue.received);
  if (err instanceof Failure) return err.retryable ? unavailable(err.backend) : httpError(500, ERRORS.internal);
  const e = err as Error & { code?: string; statusCode?: number };
  if (e?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return tooLarge(bodyLimitBytes);
  if (e?.code && FASTIFY_CODES[e.code]) return FASTIFY_CODES[e.code](e);
  if (e instanceof SyntaxError) return malformedJson(e.message);
  // zlib: a body that claims gzip or deflate but is not, or stops short.
  if (typeof e?.code === 'string' && e.code.startsWith('Z_')) return notCompressed((e as DecompressError).encoding ?? 'gzip');
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) return httpError(e.statusCode, e.message || 'Bad request');
  return httpError(500, ERRORS.internal);
}
