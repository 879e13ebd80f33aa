// Histograms as the series read merges them (series.ts): explicit buckets or exponential ones,
// their difference from an earlier cumulative point, their sum over points, and a quantile of
// the result (docs/api.md#metrics, "Percentiles").

/** Explicit buckets: counts[i] holds values <= bounds[i] (above the one before); the last is unbounded. */
export interface Explicit {
  bounds: number[];
  counts: number[];
}

/** Exponential buckets at one scale: index i holds values in (base^i, base^(i+1)], negative ones mirrored. */
export interface Exponential {
  scale: number;
  zero: number;
  positive: Map<number, number>;
  negative: Map<number, number>;
}

export const explicitOf = (bounds: number[], counts: number[]): Explicit => ({ bounds, counts });

export function exponentialOf(scale: number, zero: number, pOffset: number, pCounts: number[], nOffset: number, nCounts: number[]): Exponential {
  const positive = new Map<number, number>();
  const negative = new Map<number, number>();
  pCounts.forEach((c, i) => c > 0 && positive.set(pOffset + i, c));
  nCounts.forEach((c, i) => c > 0 && negative.set(nOffset + i, c));
  return { scale, zero, positive, negative };
}

/** The same buckets at a smaller (coarser) scale: 2^(scale - to) buckets become one. */
function downscaled(h: Exponential, to: number): Exponential {
  if (h.scale === to) return h;
  const shift = 2 ** (h.scale - to);
  const move = (m: Map<number, number>) => {
    const out = new Map<number, number>();
    for (const [i, c] of m) out.set(Math.floor(i / shift), (out.get(Math.floor(i / shift)) ?? 0) + c);
    return out;
  };
  return { scale: to, zero: h.zero, positive: move(h.positive), negative: move(h.negative) };
}

const sameBounds = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** later - earlier of one cumulative series; undefined when they cannot be compared (new bounds) or a count fell (a reset). */
export function explicitDelta(later: Explicit, earlier: Explicit): Explicit | undefined {
  if (!sameBounds(later.bounds, earlier.bounds) || later.counts.length !== earlier.counts.length) return undefined;
  const counts = later.counts.map((c, i) => c - earlier.counts[i]);
  return counts.some((c) => c < 0) ? undefined : { bounds: later.bounds, counts };
}

export function exponentialDelta(later: Exponential, earlier: Exponential): Exponential | undefined {
  const scale = Math.min(later.scale, earlier.scale);
  const a = downscaled(later, scale);
  const b = downscaled(earlier, scale);
  const minus = (x: Map<number, number>, y: Map<number, number>) => {
    const out = new Map(x);
    for (const [i, c] of y) out.set(i, (out.get(i) ?? 0) - c);
    return out;
  };
  const positive = minus(a.positive, b.positive);
  const negative = minus(a.negative, b.negative);
  const zero = a.zero - b.zero;
  if (zero < 0 || [...positive.values(), ...negative.values()].some((c) => c < 0)) return undefined;
  return { scale, zero, positive, negative };
}

/** The sum of explicit histograms; those whose bounds differ from the first one's are left out. */
export function mergeExplicit(list: Explicit[]): Explicit | undefined {
  if (list.length === 0) return undefined;
  const first = list[0];
  const counts = first.counts.map(() => 0);
  for (const h of list) if (sameBounds(h.bounds, first.bounds) && h.counts.length === counts.length) h.counts.forEach((c, i) => (counts[i] += c));
  return { bounds: first.bounds, counts };
}

export function mergeExponential(list: Exponential[]): Exponential | undefined {
  if (list.length === 0) return undefined;
  const scale = Math.min(...list.map((h) => h.scale));
  const out: Exponential = { scale, zero: 0, positive: new Map(), negative: new Map() };
  for (const h of list.map((x) => downscaled(x, scale))) {
    out.zero += h.zero;
    for (const [i, c] of h.positive) out.positive.set(i, (out.positive.get(i) ?? 0) + c);
    for (const [i, c] of h.negative) out.negative.set(i, (out.negative.get(i) ?? 0) + c);
  }
  return out;
}

/** Linear interpolation inside the bucket the rank falls in; null for an empty histogram. */
function quantileOf(buckets: Array<{ lower: number; upper: number; count: number }>, q: number): number | null {
  const total = buckets.reduce((n, b) => n + b.count, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (const b of buckets) {
    if (b.count > 0 && seen + b.count >= rank) return b.lower + (b.upper - b.lower) * ((rank - seen) / b.count);
    seen += b.count;
  }
  return buckets[buckets.length - 1].upper;
}

/**
 * As Prometheus' histogram_quantile: the first bucket starts at 0 (or at its bound when that is
 * not positive), and a rank in the unbounded last bucket reads as the highest bound.
 */
export function explicitQuantile(h: Explicit, q: number): number | null {
  const { bounds, counts } = h;
  if (bounds.length === 0) return null;
  const buckets = counts.map((count, i) => {
    const upper = i < bounds.length ? bounds[i] : bounds[bounds.length - 1];
    const lower = i === 0 ? Math.min(0, bounds[0]) : bounds[i - 1];
    return { lower: i < bounds.length ? lower : upper, upper, count };
  });
  return quantileOf(buckets, q);
}

export function exponentialQuantile(h: Exponential, q: number): number | null {
  const base = 2 ** (2 ** -h.scale);
  const negatives = [...h.negative.entries()].sort((a, b) => b[0] - a[0]).map(([i, count]) => ({ lower: -(base ** (i + 1)), upper: -(base ** i), count }));
  const positives = [...h.positive.entries()].sort((a, b) => a[0] - b[0]).map(([i, count]) => ({ lower: base ** i, upper: base ** (i + 1), count }));
  return quantileOf([...negatives, { lower: 0, upper: 0, count: h.zero }, ...positives], q);
}
