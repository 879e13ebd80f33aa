// The settings the stand-in honours, and how (README, "Settings"): the ones devtrail's reads
// carry (libs/column-store/src/read-limits.ts), applied by the engine itself as the statement's
// SETTINGS clause, so a limit stops a read exactly as a server stops it. Any other setting is
// still refused rather than ignored.

export const HONOURED_SETTINGS = new Set(['readonly', 'max_execution_time', 'max_rows_to_read', 'max_bytes_to_read', 'priority']);

/** The SQL with its settings applied (a SETTINGS clause after it, which may follow FORMAT); unchanged without settings. */
export function withSettings(sql: string, settings: ReadonlyMap<string, string>): string {
  if (settings.size === 0) return sql;
  const parts = [...settings].map(([k, v]) => {
    if (!/^\d{1,19}(\.\d{1,3})?$/.test(v)) throw new Error(`setting ${k} takes a number here (three decimals at most), not '${v}'`);
    return `${k} = ${v}`;
  });
  return `${sql.replace(/[\s;]+$/, '')}\nSETTINGS ${parts.join(', ')}`;
}

/** A read's place among waiting reads (ClickHouse's `priority`: lower first; 0, the default, first of all). */
export const priorityOf = (settings: ReadonlyMap<string, string>): number => Number(settings.get('priority') ?? 0);

/** Writes (inserts, DDL, mutations) run before waiting reads: see scheduled-engine.ts. */
export function isRead(sql: string): boolean {
  return /^\s*(\(\s*)*(SELECT|WITH|SHOW|DESCRIBE|DESC|EXISTS|EXPLAIN)\b/i.test(sql);
}
