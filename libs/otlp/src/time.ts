import { int64ToNumber } from './any-value.ts';
import type { Int64 } from './otlp-types.ts';

// OTLP times are nanoseconds since the Unix epoch (fixed64). A double holds them to
// within 256 ns, far below devtrail's millisecond resolution.

export function nanosToMs(v: Int64 | null | undefined): number {
  return v == null ? 0 : int64ToNumber(v) / 1e6;
}

/** ISO 8601 (UTC, milliseconds) of a non-zero time; undefined for 0/absent; throws for a time no Date holds. */
export function nanosToIso(v: Int64 | null | undefined): string | undefined {
  const ms = nanosToMs(v);
  if (ms === 0) return undefined;
  const d = new Date(Math.floor(ms));
  if (Number.isNaN(d.getTime())) throw new RangeError(`time ${String(v)} ns is out of range`);
  return d.toISOString();
}

const toBigInt = (v: Int64 | null | undefined): bigint => {
  if (v == null) return 0n;
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  if (typeof v === 'string') return BigInt(v);
  // A Long from its two halves: the same value as BigInt(v.toString()), whose division loop
  // cost more than the rest of a span's mapping together.
  if (typeof v.high === 'number' && typeof v.low === 'number') {
    const bits = (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0);
    return v.unsigned ? bits : BigInt.asIntN(64, bits);
  }
  return BigInt(v.toString());
};

/** end - start in milliseconds, exact to the nanosecond (doubles alone would be off by up to 256 ns). */
export function durationMs(start: Int64 | null | undefined, end: Int64 | null | undefined): number {
  return Number(toBigInt(end) - toBigInt(start)) / 1e6;
}
