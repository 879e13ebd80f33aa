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

const iso = (ms: number) => new Date(ms).toISOString();
export const TIMESTAMP_RANGE_MESSAGE = `Timestamp must be between ${iso(COLUMN.time.minMs)} and ${iso(COLUMN.time.maxMs)}`;

/** True when an ISO 8601 timestamp's instant is one the time columns hold (false for unparseable ones). */
export function timestampInRange(ts: string): boolean {
  const ms = Date.parse(ts);
  return ms >= COLUMN.time.minMs && ms <= COLUMN.time.maxMs;
}

/** An ISO 8601 timestamp with a Z or an offset, at an instant the time columns hold. */
export const storeTimestamp = z.string().datetime({ offset: true }).refine(timestampInRange, { message: TIMESTAMP_RANGE_MESSAGE });

/** A count or duration: >= 0, rounded to an integer, exact in JSON. */
export const storeCount = z
  .number()
  .min(COLUMN.count.min)
  .max(COLUMN.count.max)
  .transform((n) => Math.round(n));

/** An amount (cost): any finite number. */
export const storeAmount = z.number().finite();
