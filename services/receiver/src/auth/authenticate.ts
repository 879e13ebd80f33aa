import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_PATTERN, hashApiKey, originAllowed, safeEqual } from '@devtrail/access';
import { originNotAllowed, rateLimited, unauthorized } from '@devtrail/http';
import type { KeyGrant } from '@devtrail/relational-store';
import type { KeyCache } from './key-cache.ts';
import type { RateLimiter } from './rate-limiter.ts';

// The three onRequest steps of the ingest path (ingest-routes.ts), before any body is read.

declare module 'fastify' {
  interface FastifyRequest {
    grant?: KeyGrant;
  }
}

/** Reads "Authorization: Bearer dt_..." and returns the key, or null. */
export function bearerKey(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m && API_KEY_PATTERN.test(m[1]) ? m[1] : null;
}

/** 401 without a known key; the lookup is cached (key-cache.ts) and is 503 while PostgreSQL is out. */
export function authenticate(keys: KeyCache) {
  return async (request: FastifyRequest) => {
    const key = bearerKey(request.headers.authorization);
    if (!key) throw unauthorized();
    const hash = hashApiKey(key);
    const grant = await keys.get(hash);
    if (!grant || !safeEqual(grant.keyHash, hash)) throw unauthorized();
    request.grant = grant;
  };
}

/** 403 when a browser's Origin is not in the project's list. */
export async function checkOrigin(request: FastifyRequest) {
  if (!originAllowed(request.headers.origin, request.grant!.allowedOrigins)) throw originNotAllowed();
}

/** 429 past the key's limit; the X-RateLimit-* headers go on every answer from here on. */
export function rateLimit(limiter: RateLimiter) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const grant = request.grant!;
    const d = await limiter.take(grant.keyId, grant.rateLimitPerMinute);
    reply.header('x-ratelimit-limit', String(d.limit));
    reply.header('x-ratelimit-remaining', String(d.remaining));
    reply.header('x-ratelimit-reset', String(d.resetSeconds));
    if (!d.allowed) throw rateLimited(d.resetSeconds);
  };
}
