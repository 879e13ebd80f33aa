import { z } from 'zod';
import { isUuid } from '@devtrail/relational-store';
import { fingerprintHex, logLevels, MAX_ID_LENGTH } from '@devtrail/kinds';
import { MAX_ORIGIN_ENTRY_LENGTH, ORIGIN_ENTRY } from '@devtrail/access';
import { minChars, nameText, pgText } from '@devtrail/http';
import { searchParam } from './search-param.ts';

// Request schemas of the admin and read APIs (/api/...), beside the ingest schemas:
// the dashboard's routes parse with them and the OpenAPI document is generated from
// them. Times are ISO 8601 or epoch milliseconds.

/** Comma-separated levels (empty items ignored), nothing else. */
const LEVEL_LIST = new RegExp(`^,*((${logLevels.join('|')})(,+|$))*$`);

export const time = z
  .union([
    z
      .string()
      .regex(/^\d{10,14}$/)
      .transform(Number),
    z
      .string()
      .datetime({ offset: true })
      .transform((s) => Date.parse(s)),
  ])
  .optional();

/**
 * A whole number in a query string, in decimal digits only: z.coerce alone would also take
 * '' (as 0), ' 7', '0x10' and '1e3', which the document's integer type does not allow.
 */
export const queryInt = (min: number, max: number) =>
  z.preprocess((v) => (typeof v === 'string' && !/^[0-9]{1,16}$/.test(v) ? Number.NaN : v), z.coerce.number().int().min(min).max(max));

/** A time range alone. */
export const rangeOnlyQuery = z.object({ from: time, to: time });
export const rangeQuery = z.object({ from: time, to: time, limit: queryInt(1, 1000).optional(), cursor: z.string().max(500).optional() });

export const logsQuery = rangeQuery.extend({
  level: z
    .string()
    .regex(LEVEL_LIST, `comma-separated levels: ${logLevels.join(', ')}`)
    .optional()
    .transform((s) => (s ? s.split(',').filter(Boolean) : undefined))
    .pipe(z.array(z.enum(logLevels)).optional()),
  service: z.string().max(500).optional(),
  environment: z.string().max(500).optional(),
  release: z.string().max(128).optional(),
  trace_id: z.string().max(MAX_ID_LENGTH).optional(),
  q: searchParam.optional(),
});

export const releaseHealthQuery = rangeQuery.extend({ environment: z.string().max(200).optional() });
export const errorsQuery = rangeQuery.extend({
  fingerprint: fingerprintHex.optional(),
  trace_id: z.string().max(MAX_ID_LENGTH).optional(),
  has_trace: z.enum(['true', 'false']).optional(),
});
export const tracesQuery = rangeQuery.extend({ operation: z.string().max(500).optional() });

export const projectIdParam = z.object({ id: z.string().refine(isUuid, 'must be a project id (uuid)') });

export const createProjectBody = z.object({
  name: nameText(200),
  rate_limit_per_minute: z.number().int().min(1).max(10_000_000).optional(),
});
export const originsBody = z.object({
  origins: z
    .array(
      z
        .string()
        .max(MAX_ORIGIN_ENTRY_LENGTH, `must be at most ${MAX_ORIGIN_ENTRY_LENGTH} characters`)
        .regex(ORIGIN_ENTRY, 'must be a domain (example.com), a wildcard (*.example.com) or an http(s) origin (https://app.example.com)'),
    )
    .max(100),
});
export const rateLimitBody = z.object({ rate_limit_per_minute: z.number().int().min(1).max(10_000_000) });
export const drainSecretBody = z.object({ secret: minChars(pgText().max(200), 8).nullable() });
export const fingerprintParam = z.object({ fingerprint: fingerprintHex });
export const ingestionQuery = z.object({ minutes: queryInt(1, 1440).default(60) });
/** A trace id in a path, bounded as on ingest. */
export const traceIdParam = z.object({ traceId: z.string().min(1).max(MAX_ID_LENGTH) });

export const apiTimeRange = (q: { from?: number; to?: number }) => ({ fromMs: q.from, toMs: q.to });

/** A project as the admin API shows it: snake_case, never a key or a secret. */
export interface ProjectJson {
  id: string;
  name: string;
  key_prefix: string | null;
  key_created_at: string | null;
  allowed_origins: string[];
  rate_limit_per_minute: number;
  has_drain_secret: boolean;
  created_at: string;
}
