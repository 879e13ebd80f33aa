// Shared pieces of the read queries: every read is bounded by project and time range.

export interface TimeRange {
  /** Inclusive bounds, epoch milliseconds. */
  fromMs: number;
  toMs: number;
}

/** How far back a read looks when the caller gives no start. */
export const DEFAULT_LOOKBACK_MS = 24 * 3600 * 1000;
/** How far past now a list read reaches when the caller gives no end: events from clocks running a little ahead still show. */
export const CLOCK_AHEAD_MS = 60_000;
/** Chart buckets are whole minutes, so a chart spans at least one. */
export const MIN_BUCKET_MS = 60_000;
export const MAX_LIMIT = 1000;

export function clampLimit(limit: number | undefined, def = 100): number {
  if (!limit || !Number.isFinite(limit)) return def;
  return Math.max(1, Math.min(MAX_LIMIT, Math.floor(limit)));
}

/** The caller's bounds; a missing start is the lookback before the end, a missing end is `defaultEnd`. */
export function rangeOrDefault(range: Partial<TimeRange> | undefined, now = Date.now(), defaultEnd = now + CLOCK_AHEAD_MS): TimeRange {
  const toMs = range?.toMs ?? defaultEnd;
  return { fromMs: range?.fromMs ?? toMs - DEFAULT_LOOKBACK_MS, toMs };
}

/** A chart's time axis: `count` equal steps from `fromMs`. */
export interface Buckets extends TimeRange {
  stepMs: number;
  count: number;
}

/** At most `wanted` whole-minute buckets over the range; a chart with no end given ends now. */
export function bucketsOf(range: Partial<TimeRange>, wanted: number, now = Date.now()): Buckets {
  const r = rangeOrDefault(range, now, now);
  const fromMs = Math.min(r.fromMs, r.toMs - MIN_BUCKET_MS);
  const stepMs = Math.max(MIN_BUCKET_MS, Math.ceil((r.toMs - fromMs) / wanted / MIN_BUCKET_MS) * MIN_BUCKET_MS);
  return { fromMs, toMs: r.toMs, stepMs, count: Math.ceil((r.toMs - fromMs) / stepMs) };
}

/** SQL: the bucket index of a DateTime64 column; parameters `from` and `step` are a Buckets' fromMs and stepMs. */
export const bucketExpr = (column: string) => `intDiv(toUnixTimestamp64Milli(${column}) - {from:Int64}, {step:Int64})`;

/** Opaque pagination cursor: the (time, event id) of the last row returned. */
export function encodeCursor(timeCh: string, eventId: string): string {
  return Buffer.from(JSON.stringify([timeCh, eventId])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): { time: string; id: string } | null {
  if (!cursor) return null;
  try {
    const [time, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof time !== 'string' || typeof id !== 'string') return null;
    if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,3})?$/.test(time)) return null;
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    return { time, id };
  } catch {
    return null;
  }
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
