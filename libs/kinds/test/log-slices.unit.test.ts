import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slicesOf, type Slice } from '../src/log/read.ts';

// The logs list reads its range newest slice first (log/read.ts), sized from what the slices
// before found: the slices must cover the range once, newest first, and stop when enough rows
// are found; a search that finds nothing reads a day in four queries.

/** The slices visited when each one finds `found(slice)` rows. */
function visit(fromMs: number, toMs: number, want: number, found: (s: Slice, i: number) => number): Slice[] {
  const out: Slice[] = [];
  const it = slicesOf(fromMs, toMs, want);
  for (let s = it.next(); !s.done; ) {
    out.push(s.value);
    s = it.next(found(s.value, out.length - 1));
  }
  return out;
}

describe('log list slices', () => {
  it('cover the range newest first, once, in whole milliseconds, and stop when enough rows are found', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.integer({ min: 1, max: 1001 }),
        fc.array(fc.nat({ max: 300 }), { minLength: 1, maxLength: 20 }),
        (from, length, want, counts) => {
          const slices = visit(from, from + length, want, (_, i) => counts[i % counts.length]);
          expect(slices[0].toMs).toBe(from + length);
          for (let i = 1; i < slices.length; i++) expect(slices[i].toMs).toBe(slices[i - 1].fromMs);
          for (const s of slices) {
            expect(s.toMs).toBeGreaterThan(s.fromMs);
            expect(Number.isInteger(s.fromMs) && Number.isInteger(s.toMs)).toBe(true);
          }
          const found = slices.map((_, i) => counts[i % counts.length]);
          const total = found.reduce((a, b) => a + b, 0);
          // Either the whole range was read, or the last slice made the rows enough (and not one before it).
          if (slices[slices.length - 1].fromMs !== from) expect(total).toBeGreaterThanOrEqual(want);
          expect(total - found[found.length - 1]).toBeLessThan(want);
        },
      ),
    );
  });

  it('read a day newest 5.6 minutes first, then eight times more while nothing is found', () => {
    const day = visit(0, 86_400_000, 101, () => 0).map((s) => s.toMs - s.fromMs);
    expect(day).toEqual([337_500, 2_700_000, 21_600_000, 86_400_000 - 337_500 - 2_700_000 - 21_600_000]);
    // Dense matches: the first slice is enough.
    expect(visit(0, 86_400_000, 101, () => 101)).toHaveLength(1);
    // A hour's first slice is a minute.
    expect(visit(0, 3600_000, 101, () => 1)[0]).toEqual({ fromMs: 3540_000, toMs: 3600_000 });
    expect(visit(5, 5, 10, () => 0)).toEqual([]);
  });
});
