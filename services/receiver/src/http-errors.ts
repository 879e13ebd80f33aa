import { ZodError } from 'zod';
import { MessageLogError } from '@devtrail/message-log';
import { validationErrorBody } from '@devtrail/contract';

// Every failure becomes an HTTP answer here, and only here. Bodies of the spec's
// statuses are byte-for-byte the spec's; the others are {error: "..."} JSON.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.error === 'string' ? body.error : `HTTP ${status}`);
  }
}

export const RETRY_AFTER_SECONDS = 5;

export const unauthorized = () => new HttpError(401, { error: 'Missing or invalid API key' });
export const originNotAllowed = () => new HttpError(403, { error: 'Origin not allowed' });
export const badSignature = () => new HttpError(403, { error: 'Invalid drain signature' });
export const rateLimited = (retryAfter: number) => new HttpError(429, { error: 'Rate limit exceeded' }, { 'retry-after': String(retryAfter) });
export const unavailable = () =>
  new HttpError(503, { error: 'Ingestion temporarily unavailable: the event log cannot accept writes. Retry later.' }, { 'retry-after': String(RETRY_AFTER_SECONDS) });

function custom400(message: string, expected: string, received: string) {
  return new HttpError(400, {
    success: false,
    error: { issues: [{ code: 'custom', expected, received, path: [], message }], name: 'ZodError' },
  });
}

const FASTIFY_CODES: Record<string, (err: Error & { code?: string }) => HttpError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new HttpError(413, { error: 'Request body too large' }),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new HttpError(415, { error: 'Unsupported Content-Type: send application/json' }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => custom400('Request body is empty', 'JSON body', 'empty body'),
  FST_ERR_CTP_INVALID_JSON_BODY: (e) => custom400(`Malformed JSON body: ${e.message}`, 'valid JSON', 'malformed JSON'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => custom400('Content-Length does not match the body', 'matching Content-Length', 'mismatch'),
  FST_ERR_CTP_EMPTY_TYPE: () => new HttpError(415, { error: 'Missing Content-Type: send application/json' }),
  FST_ERR_BAD_URL: () => new HttpError(400, { error: 'Malformed URL' }),
  FST_ERR_ASYNC_CONSTRAINT: () => new HttpError(400, { error: 'Bad request' }),
};

/** Classifies any thrown value into the answer the client gets. */
export function toHttpError(err: unknown, bodyLimitBytes?: number): HttpError {
  if ((err as { code?: string })?.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && bodyLimitBytes) {
    return new HttpError(413, { error: `Request body too large (limit ${bodyLimitBytes} bytes, counted after decompression)` });
  }
  if (err instanceof HttpError) return err;
  if (err instanceof ZodError) return new HttpError(400, validationErrorBody(err) as unknown as Record<string, unknown>);
  if (err instanceof MessageLogError) return unavailable();
  const e = err as Error & { code?: string; statusCode?: number };
  if (e?.code && FASTIFY_CODES[e.code]) return FASTIFY_CODES[e.code](e);
  if (e instanceof SyntaxError) return custom400(`Malformed JSON body: ${e.message}`, 'valid JSON', 'malformed JSON');
  // zlib: a body that claims gzip but is not.
  if (e?.code === 'Z_DATA_ERROR' || e?.code === 'Z_BUF_ERROR') return custom400('Body is not valid gzip', 'gzip data', 'invalid gzip');
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new HttpError(e.statusCode, { error: e.message || 'Bad request' });
  }
  return new HttpError(500, { error: 'Internal server error' });
}
