// Time buckets for the UI's charts: a bounded number of equal steps over the range.

export interface Buckets {
  fromMs: number;
  toMs: number;
  stepMs: number;
  count: number;
}

const DEFAULT_RANGE_MS = 24 * 3600 * 1000;

export function bucketsOf(range: { from?: number; to?: number }, wanted: number, now = Date.now()): Buckets {
  const toMs = range.to ?? now;
  const fromMs = Math.min(range.from ?? toMs - DEFAULT_RANGE_MS, toMs - 60_000);
  const stepMs = Math.max(60_000, Math.ceil((toMs - fromMs) / wanted / 60_000) * 60_000);
  return { fromMs, toMs, stepMs, count: Math.ceil((toMs - fromMs) / stepMs) };
}

/** ClickHouse expression: the bucket index of a DateTime64 column. */
export const bucketExpr = (column: string) => `intDiv(toUnixTimestamp64Milli(${column}) - {from:Int64}, {step:Int64})`;
