// The limits every read runs under (docs/api.md, "Read limits"): ClickHouse's own settings, so
// the engine stops a read that runs too long or scans too much, and refuses one that would write.
// The store applies them itself, to every read (bounded-read.ts): no caller or wrapper can leave
// them out. Both adapters apply them (the HTTP one as the request's settings, chdb as the
// statement's SETTINGS clause); the shared contract suite checks both.

export interface ReadLimits {
  /** max_execution_time, in ms (sent as seconds with three decimals). */
  maxExecutionMs: number;
  maxRowsToRead: number;
  maxBytesToRead: number;
}

/**
 * The defaults (config.ts takes them from here). One engine connection (embedded mode's chdb, the
 * dev stand-in) runs one statement at a time, so a lookup waits for the read in flight: half a
 * second keeps another project's page within a second. A server runs reads side by side.
 */
export const READ_LIMIT_DEFAULTS = {
  oneConnectionMs: 500,
  serverMs: 10_000,
  maxRowsToRead: 500_000_000,
  maxBytesToRead: 50_000_000_000,
} as const;

/** The defaults of a server (the adapters' when they are given none). */
export const SERVER_READ_LIMITS: ReadLimits = {
  maxExecutionMs: READ_LIMIT_DEFAULTS.serverMs,
  maxRowsToRead: READ_LIMIT_DEFAULTS.maxRowsToRead,
  maxBytesToRead: READ_LIMIT_DEFAULTS.maxBytesToRead,
};

/** The settings a query may carry: names and plain numbers only (they are written into SQL by chdb). */
export type QuerySettings = Record<string, number>;

/** ClickHouse's codes for a read stopped by these limits. */
export const READ_LIMIT_CODES = { timeout: '159', rows: '158', bytes: '307' } as const;

/**
 * ClickHouse's `priority` of a read: a lookup (a page of logs, a group, a trace) before a search
 * (a text search, a histogram, facets, a chart), which may be dear. A server pauses
 * lower-priority queries while higher ones run; one engine connection takes its waiting reads in
 * that order (writes-first.ts).
 */
export const READ_PRIORITY = { lookup: 1, search: 2 } as const;

/** Which kind of read: its place in the queue (READ_PRIORITY). Every kind runs under the limits. */
export type ReadClass = keyof typeof READ_PRIORITY;

export function readSettings(l: ReadLimits, kind: ReadClass = 'lookup'): QuerySettings {
  return {
    priority: READ_PRIORITY[kind],
    // 2, not 1: reads only, while the limits below may still be set in the same request.
    readonly: 2,
    max_execution_time: Math.max(1, Math.ceil(l.maxExecutionMs)) / 1000,
    max_rows_to_read: l.maxRowsToRead,
    max_bytes_to_read: l.maxBytesToRead,
  };
}

const NAME = /^[a-z_][a-z0-9_]*$/;

/** A setting's value as SQL: a whole number, or a number of seconds with at most three decimals. */
function settingValue(k: string, v: number): string {
  const ms = Math.round(v * 1000);
  if (!NAME.test(k) || !Number.isFinite(v) || v < 0 || !Number.isSafeInteger(ms) || Math.abs(v * 1000 - ms) > 1e-6) throw new Error(`not a setting: ${k}=${v}`);
  return Number.isSafeInteger(v) ? String(v) : (ms / 1000).toFixed(3).replace(/0+$/, '');
}

/** A statement's SETTINGS clause (chdb, and the stand-in for a server's URL settings); '' for none. */
export function settingsClause(settings: QuerySettings | undefined): string {
  if (!settings) return '';
  const parts = Object.entries(settings).map(([k, v]) => `${k} = ${settingValue(k, v)}`);
  return parts.length ? `\nSETTINGS ${parts.join(', ')}` : '';
}
