// Percentiles over recorded samples (nearest-rank), rounded for printing.

export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export interface Summary {
  n: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

export function summarize(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const r = (v: number | null) => (v === null ? null : Math.round(v * 10) / 10);
  return { n: s.length, p50: r(percentile(s, 50)), p99: r(percentile(s, 99)), max: r(s.length ? s[s.length - 1] : null) };
}

/** The middle value (the upper middle of an even count). */
export const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
