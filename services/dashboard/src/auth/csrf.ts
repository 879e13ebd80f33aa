import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { safeEqual } from '@devtrail/access';

// CSRF: every mutating request made with a session cookie carries the session's token in
// the X-CSRF-Token header, compared in constant time. A cross-site page can make the
// browser send the cookie, but it cannot read the token (it is only in /auth/me's
// same-origin JSON) nor set a custom header without a CORS preflight we never approve
// with credentials.

export const CSRF_HEADER = 'x-csrf-token';

export const newToken = () => randomBytes(32).toString('base64url');

export const isMutating = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());

export function csrfMatches(expected: string | undefined, request: FastifyRequest): boolean {
  const given = request.headers[CSRF_HEADER];
  if (!expected || typeof given !== 'string' || given.length === 0) return false;
  return safeEqual(given, expected);
}

/** Thrown from authentication; the APIs' error mapping answers 403 JSON. */
export class CsrfError extends Error {
  readonly statusCode = 403;
  constructor() {
    super('Missing or invalid CSRF token');
  }
}
