import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rangeEdges, rangesOf, rangeSearch } from '../src/log/ranges.ts';
import { parseSearch as parseWith } from '../src/search/syntax.ts';
import { LOG_SEARCH } from '../src/log/search.ts';

const parseSearch = (q: string) => parseWith(q, LOG_SEARCH);

// A numeric metadata facet's ranges (log/ranges.ts): round edges inside the values' span, and
// ranges that hold every number exactly once. Their counts over a real store are held to the
// rows each range's search finds by the explorer's browser test.

const inRange = (v: number, r: { from: number | null; to: number | null }) => (r.from === null || v > r.from) && (r.to === null || v <= r.to);

describe('numeric metadata ranges', () => {
  it('splits at round numbers', () => {
    expect(rangeEdges(20, 919, 5, true)).toEqual([200, 400, 600, 800]);
    expect(rangeEdges(0.012, 0.93, 5, false)).toEqual([0.2, 0.4, 0.6, 0.8]);
    expect(rangeEdges(1, 3, 5, true)).toEqual([2]);
    expect(rangeEdges(7, 7, 5, true)).toEqual([]);
    expect(rangesOf([], 7)).toEqual([{ from: null, to: 7 }]);
    expect(rangesOf([200, 400], 919)).toEqual([
      { from: null, to: 200 },
      { from: 200, to: 400 },
      { from: 400, to: null },
    ]);
  });

  it('puts every value in exactly one range, with strictly increasing edges inside the span', () => {
    const num = fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.double({ min: -1e12, max: 1e12, noNaN: true, noDefaultInfinity: true }));
    fc.assert(
      fc.property(fc.array(num, { minLength: 1, maxLength: 40 }), fc.integer({ min: 2, max: 10 }), (values, buckets) => {
        const [min, max] = [Math.min(...values), Math.max(...values)];
        const edges = rangeEdges(min, max, buckets, values.every(Number.isInteger));
        expect(edges.length).toBeLessThanOrEqual(buckets - 1);
        edges.forEach((e, i) => {
          expect(e).toBeGreaterThan(i === 0 ? min : edges[i - 1]);
          expect(e).toBeLessThan(max);
        });
        const ranges = rangesOf(edges, max);
        for (const v of values) expect(ranges.filter((r) => inRange(v, r))).toHaveLength(1);
      }),
    );
  });

  it('is the search the explorer writes for a range', () => {
    expect(rangeSearch('duration_ms', { from: 200, to: 400 })).toEqual(parseSearch('metadata.duration_ms:>200 metadata.duration_ms:<=400'));
    expect(rangeSearch('duration_ms', { from: null, to: 200 })).toEqual(parseSearch('metadata.duration_ms:<=200'));
    expect(rangeSearch('latency', { from: 0.8, to: null })).toEqual(parseSearch('metadata.latency:>0.8'));
  });
});
