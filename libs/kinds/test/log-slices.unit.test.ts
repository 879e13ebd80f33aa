import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slicesOf } from '../src/log/read.ts';

// The logs list reads its range newest slice first (log/read.ts): the slices must cover the
// range exactly once, newest first, in a handful of queries.

describe('log list slices', () => {
  it('cover the range exactly, newest first, in at most five slices', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), fc.integer({ min: 1, max: 2 ** 40 }), (from, length) => {
        const slices = slicesOf(from, from + length);
        expect(slices[0].toMs).toBe(from + length);
        expect(slices[slices.length - 1].fromMs).toBe(from);
        for (let i = 1; i < slices.length; i++) expect(slices[i].toMs).toBe(slices[i - 1].fromMs);
        for (const s of slices) {
          expect(s.toMs).toBeGreaterThan(s.fromMs);
          expect(Number.isInteger(s.fromMs) && Number.isInteger(s.toMs)).toBe(true);
        }
        expect(slices.length).toBeLessThanOrEqual(5);
      }),
    );
  });

  it('start with the newest minute of an hour, the newest 5.6 minutes of a day', () => {
    expect(slicesOf(0, 3600_000).map((s) => s.toMs - s.fromMs)).toEqual([60_000, 240_000, 960_000, 2_340_000]);
    expect(slicesOf(0, 86_400_000)[0].toMs - slicesOf(0, 86_400_000)[0].fromMs).toBe(337_500);
    expect(slicesOf(5, 5)).toEqual([]);
  });
});
