import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_PATTERN, hashApiKey, originAllowed, originNotAllowed, rateLimited, safeEqual, unauthorized } from '@devtrail/contract';
import type { KeyGrant } from '@devtrail/relational-store';
import type { KeyCache } from './key-cache.ts';
import type { RateLimiter } from './rate-limiter.ts';

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

/**
 * onRequest, before any body is read: key (401), origin (403), rate limit (429).
 * Rate-limit headers go on every answer once the key is known.
 */
export function authenticate(keys: KeyCache, limiter: RateLimiter) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const key = bearerKey(request.headers.authorization);
    if (!key) throw unauthorized();
    const hash = hashApiKey(key);
    const grant = await keys.get(hash);
    if (!grant || !safeEqual(grant.keyHash, hash)) throw unauthorized();
    if (!originAllowed(request.headers.origin, grant.allowedOrigins)) throw originNotAllowed();
    const d = await limiter.take(grant.keyId, grant.rateLimitPerMinute);
    reply.header('x-ratelimit-limit', String(d.limit));
    reply.header('x-ratelimit-remaining', String(d.remaining));
    reply.header('x-ratelimit-reset', String(d.resetSeconds));
    if (!d.allowed) throw rateLimited(d.resetSeconds);
    request.grant = grant;
  };
}
