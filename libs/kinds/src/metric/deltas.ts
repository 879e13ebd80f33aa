import { explicitDelta, explicitOf, exponentialDelta, exponentialOf, type Explicit, type Exponential } from './histograms.ts';

// What each point added since the one before it in its series (docs/api.md#metrics, "Rates and
// resets"): a delta point is that already; a cumulative one is its difference from the previous
// point of the same series, or, after a reset (a new start time, or a count that fell), all of
// it since its new start. A series' first point read counts whole only when its start lies in
// what was read; otherwise (an earlier start, or none: the epoch) what it added is unknown (null).

/** A stored point as the series read selects it. */
export interface PointRow {
  series: string;
  type: string;
  temporality: string;
  monotonic: boolean;
  t: number;
  s: number;
  value: number;
  count: number;
  sum: number;
  min: number | null;
  max: number | null;
  bounds: number[];
  bucket_counts: number[];
  scale: number;
  zero_count: number;
  positive_offset: number;
  positive_counts: number[];
  negative_offset: number;
  negative_counts: number[];
  quantiles: number[];
  quantile_values: number[];
}

/** What a point added: to a sum's value, or to a histogram's count, sum and buckets. */
export interface Delta {
  value: number;
  count: number;
  sum: number;
  explicit?: Explicit;
  exponential?: Exponential;
}

const histogramOf = (p: PointRow) =>
  p.type === 'histogram'
    ? { explicit: explicitOf(p.bounds, p.bucket_counts) }
    : { exponential: exponentialOf(p.scale, p.zero_count, p.positive_offset, p.positive_counts, p.negative_offset, p.negative_counts) };

const whole = (p: PointRow): Delta => ({ value: p.value, count: p.count, sum: p.sum, ...(p.type === 'sum' ? {} : histogramOf(p)) });

function difference(p: PointRow, prev: PointRow): Delta | undefined {
  if (p.type === 'sum') {
    const value = p.value - prev.value;
    return p.monotonic && value < 0 ? undefined : { value, count: 0, sum: 0 };
  }
  if (p.count < prev.count) return undefined;
  const buckets =
    p.type === 'histogram'
      ? { explicit: explicitDelta(explicitOf(p.bounds, p.bucket_counts), explicitOf(prev.bounds, prev.bucket_counts)) }
      : { exponential: exponentialDelta(histogramOf(p).exponential!, histogramOf(prev).exponential!) };
  if (!buckets.explicit && !buckets.exponential) return undefined;
  return { value: 0, count: p.count - prev.count, sum: p.sum - prev.sum, ...buckets };
}

/** Each point's delta (null: unknown), for points ordered by series, then time; `readFromMs` is where the read began. */
export function deltasOf(points: PointRow[], readFromMs: number): Array<Delta | null> {
  return points.map((p, i) => {
    if (p.type === 'gauge' || p.type === 'summary') return null;
    if (p.temporality === 'delta') return whole(p);
    const prev = i > 0 && points[i - 1].series === p.series ? points[i - 1] : undefined;
    // A reset: a new start, or a count that fell. Its point holds all since its new start.
    if (prev && prev.s === p.s) return difference(p, prev) ?? whole(p);
    if (prev) return whole(p);
    return p.s >= readFromMs && p.s <= p.t ? whole(p) : null;
  });
}
