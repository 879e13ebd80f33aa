import { z } from 'zod';
import { isUuid } from '@devtrail/relational-store';

// Query-string and body schemas of the APIs. Times are ISO 8601 or epoch milliseconds.

const time = z
  .union([z.string().regex(/^\d{10,14}$/).transform(Number), z.string().datetime({ offset: true }).transform((s) => Date.parse(s))])
  .optional();

export const rangeQuery = z.object({ from: time, to: time, limit: z.coerce.number().int().min(1).max(1000).optional(), cursor: z.string().max(500).optional() });

export const logsQuery = rangeQuery.extend({
  level: z
    .string()
    .optional()
    .transform((s) => (s ? s.split(',').filter(Boolean) : undefined))
    .pipe(z.array(z.enum(['debug', 'info', 'warn', 'error'])).optional()),
  service: z.string().max(500).optional(),
  environment: z.string().max(500).optional(),
  release: z.string().max(128).optional(),
  trace_id: z.string().max(500).optional(),
  q: z.string().max(500).optional(),
});

export const errorsQuery = rangeQuery.extend({ fingerprint: z.string().regex(/^[0-9a-f]{64}$/).optional() });
export const tracesQuery = rangeQuery.extend({ operation: z.string().max(500).optional() });

export const projectIdParam = z.object({ id: z.string().refine(isUuid, 'must be a project id (uuid)') });

export const createProjectBody = z.object({
  name: z.string().trim().min(1).max(200),
  rate_limit_per_minute: z.number().int().min(1).max(10_000_000).optional(),
});
export const originsBody = z.object({ origins: z.array(z.string().trim().min(1).max(253)).max(100) });
export const rateLimitBody = z.object({ rate_limit_per_minute: z.number().int().min(1).max(10_000_000) });
export const drainSecretBody = z.object({ secret: z.string().min(8).max(200).nullable() });

export const range = (q: { from?: number; to?: number }) => ({ fromMs: q.from, toMs: q.to });
