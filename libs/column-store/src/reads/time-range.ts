// Shared pieces of the read queries: every read is bounded by project and time range.

export interface TimeRange {
  /** Inclusive bounds, epoch milliseconds. */
  fromMs: number;
  toMs: number;
}

export const DEFAULT_RANGE_MS = 24 * 3600 * 1000;
export const MAX_LIMIT = 1000;

export function clampLimit(limit: number | undefined, def = 100): number {
  if (!limit || !Number.isFinite(limit)) return def;
  return Math.max(1, Math.min(MAX_LIMIT, Math.floor(limit)));
}

export function rangeOrDefault(range: Partial<TimeRange> | undefined, now = Date.now()): TimeRange {
  const toMs = range?.toMs ?? now + 60_000;
  return { fromMs: range?.fromMs ?? toMs - DEFAULT_RANGE_MS, toMs };
}

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
