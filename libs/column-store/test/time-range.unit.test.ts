import { describe, expect, it } from 'vitest';
import { bucketsOf, CLOCK_AHEAD_MS, DEFAULT_LOOKBACK_MS, MIN_BUCKET_MS, rangeOrDefault } from '../src/time-range.ts';

describe('read ranges and chart buckets', () => {
  const now = Date.parse('2025-06-01T12:34:56.789Z');

  it('splits a range into at most the wanted number of whole-minute buckets that cover it', () => {
    expect(bucketsOf({ fromMs: now - 24 * 3600_000, toMs: now }, 48, now)).toEqual({ fromMs: now - 24 * 3600_000, toMs: now, stepMs: 30 * 60_000, count: 48 });
    for (const wanted of [2, 7, 24, 500]) {
      const b = bucketsOf({ fromMs: now - 6 * 3600_000 - 12_345, toMs: now }, wanted, now);
      expect(b.stepMs % MIN_BUCKET_MS).toBe(0);
      expect(b.count).toBeLessThanOrEqual(wanted);
      expect(b.fromMs + b.count * b.stepMs).toBeGreaterThanOrEqual(b.toMs);
      expect(b.fromMs + (b.count - 1) * b.stepMs).toBeLessThan(b.toMs);
    }
  });

  it('widens a range shorter than a minute to one bucket of a minute, ending where asked', () => {
    expect(bucketsOf({ fromMs: now - 30_000, toMs: now }, 24, now)).toEqual({ fromMs: now - MIN_BUCKET_MS, toMs: now, stepMs: MIN_BUCKET_MS, count: 1 });
  });

  it('defaults: a chart ends now, a list read a clock allowance later; both look back the same', () => {
    expect(bucketsOf({}, 24, now)).toMatchObject({ fromMs: now - DEFAULT_LOOKBACK_MS, toMs: now });
    expect(rangeOrDefault(undefined, now)).toEqual({ fromMs: now + CLOCK_AHEAD_MS - DEFAULT_LOOKBACK_MS, toMs: now + CLOCK_AHEAD_MS });
    expect(rangeOrDefault({ toMs: now }, now)).toEqual({ fromMs: now - DEFAULT_LOOKBACK_MS, toMs: now });
    expect(rangeOrDefault({ fromMs: 5 }, now)).toEqual({ fromMs: 5, toMs: now + CLOCK_AHEAD_MS });
  });
});
