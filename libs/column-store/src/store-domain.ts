import { z } from 'zod';

// What the column store can hold, per column type, at devtrail's production floor
// (ClickHouse 24.8). The tables (libs/column-store/src/schema.ts) are declared with these
// `sql` types and the receiver validates with the checks below, so the two cannot drift:
// a value the store would refuse, wrap or clamp is answered 400 at the door, never
// acknowledged and then dead-lettered.

export const COLUMN = {
  /** ClickHouse 24.x holds DateTime64 from 1900-01-01 to 2299-12-31 and silently clamps the rest. */
  time: { sql: "DateTime64(3, 'UTC')", minMs: Date.UTC(1900, 0, 1), maxMs: Date.UTC(2299, 11, 31, 23, 59, 59, 999) },
  /** UInt64 counts and durations, bounded where JSON numbers stop being exact integers (2^53 - 1). */
  count: { sql: 'UInt64', min: 0, max: Number.MAX_SAFE_INTEGER },
  /** Float64: finite only (JSON has no Infinity; 1e309 parses as one). */
  amount: { sql: 'Float64' },
} as const;

/**
 * Timestamps are accepted when written in the years 1901 to 2298 with an offset of at
 * most ±23:59: whatever the offset, the instant then lies inside what the time columns
 * hold (1900 to 2299). The rule is a pattern on the text rather than a check of the
 * instant, so the OpenAPI document carries it exactly (its `pattern`) and a client can
 * know beforehand what will be accepted; the two edge years are the price.
 */
export const STORE_TIMESTAMP_PATTERN = /^(19(0[1-9]|[1-9]\d)|2[01]\d\d|22([0-8]\d|9[0-8]))-.*(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)$/;
export const TIMESTAMP_RANGE_MESSAGE = 'Timestamp must be written in the years 1901 to 2298, with Z or an offset of at most ±23:59';
/** The earliest and latest instants a client can send (the years' edges, pushed by the widest offsets). */
export const TIMESTAMP_EXTREMES = ['1901-01-01T00:00:00.000+23:59', '2298-12-31T23:59:59.999-23:59'] as const;

/** True when an ISO 8601 timestamp (already valid as one) is in the accepted years and offsets. */
export function timestampInRange(ts: string): boolean {
  return STORE_TIMESTAMP_PATTERN.test(ts);
}

/** An ISO 8601 timestamp with a Z or an offset, written so that its instant is one the time columns hold. */
export const storeTimestamp = z.string().datetime({ offset: true }).regex(STORE_TIMESTAMP_PATTERN, TIMESTAMP_RANGE_MESSAGE);

/** A count or duration: >= 0, rounded to an integer, exact in JSON. */
export const storeCount = z
  .number()
  .min(COLUMN.count.min)
  .max(COLUMN.count.max)
  .transform((n) => Math.round(n));

/** An amount (cost): any finite number. */
export const storeAmount = z.number().finite();
