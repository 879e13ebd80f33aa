import type { RefusalReason } from './catalog.ts';

/** The reason label of a refused ingest request, from its HTTP status (docs/operations.md#metrics). */
export function refusalReason(status: number): RefusalReason {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'origin';
  if (status === 413) return 'too_large';
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'unavailable';
  if (status >= 500) return 'internal';
  return 'invalid'; // 400, 415 and any other 4xx: the request itself is at fault
}
