// The limits every read of the read API and the explorer runs under (docs/api.md, "Read limits"):
// ClickHouse's own settings, so the engine stops a read that runs too long or scans too much,
// and refuses one that would write. Both adapters apply them (the HTTP one as the request's
// settings, chdb as the statement's SETTINGS clause); the shared contract suite checks both.

export interface ReadLimits {
  /** max_execution_time, in ms (ClickHouse takes whole seconds: rounded up). */
  maxExecutionMs: number;
  maxRowsToRead: number;
  maxBytesToRead: number;
}

/** The settings a query may carry: names and whole numbers only (they are written into SQL by chdb). */
export type QuerySettings = Record<string, number>;

/** ClickHouse's codes for a read stopped by these limits. */
export const READ_LIMIT_CODES = { timeout: '159', rows: '158', bytes: '307' } as const;

/**
 * ClickHouse's `priority` of a read: a lookup (a page of logs, a group, a trace) before a search
 * (a text search, a histogram, facets), which may be dear. A server pauses lower-priority queries
 * while higher ones run; one engine connection takes its waiting reads in that order
 * (writes-first.ts).
 */
export const READ_PRIORITY = { lookup: 1, search: 2 } as const;

export function readSettings(l: ReadLimits, kind: keyof typeof READ_PRIORITY = 'lookup'): QuerySettings {
  return {
    priority: READ_PRIORITY[kind],
    // 2, not 1: reads only, while the limits below may still be set in the same request.
    readonly: 2,
    max_execution_time: Math.max(1, Math.ceil(l.maxExecutionMs / 1000)),
    max_rows_to_read: l.maxRowsToRead,
    max_bytes_to_read: l.maxBytesToRead,
  };
}

const NAME = /^[a-z_][a-z0-9_]*$/;

/** A statement's SETTINGS clause (chdb, and the stand-in for a server's URL settings); '' for none. */
export function settingsClause(settings: QuerySettings | undefined): string {
  if (!settings) return '';
  const parts = Object.entries(settings).map(([k, v]) => {
    if (!NAME.test(k) || !Number.isSafeInteger(v)) throw new Error(`not a setting: ${k}=${v}`);
    return `${k} = ${v}`;
  });
  return parts.length ? `\nSETTINGS ${parts.join(', ')}` : '';
}
