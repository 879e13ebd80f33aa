import { Readable } from 'node:stream';
import { KINDS, type LogRecord } from '@devtrail/kinds';

// A logs result as a file (docs/api.md, "GET /api/projects/:id/logs/export"): CSV (RFC 4180,
// the metadata as its JSON text) or NDJSON (one record per line, as GET /logs answers it),
// streamed page by page from an async source of pages.

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_TYPES: Record<ExportFormat, string> = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson; charset=utf-8' };

/** The CSV's columns: the log record's, received_at after the timestamp. */
export const CSV_COLUMNS = KINDS.log.recordColumns;

/**
 * One CSV field: quoted when it holds a quote, comma or line break; a text a spreadsheet would
 * read as a formula (=, +, -, @, tab, CR first) gets a ' before it (OWASP's CSV injection rule).
 */
export function csvField(value: unknown): string {
  let s = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csvLine = (r: LogRecord) => `${CSV_COLUMNS.map((c) => csvField((r as Record<string, unknown>)[c])).join(',')}\r\n`;

export function exportStream(pages: AsyncIterable<LogRecord[]>, format: ExportFormat): Readable {
  async function* lines() {
    if (format === 'csv') yield `${CSV_COLUMNS.join(',')}\r\n`;
    for await (const page of pages) yield page.map((r) => (format === 'csv' ? csvLine(r) : `${JSON.stringify(r)}\n`)).join('');
  }
  return Readable.from(lines());
}
