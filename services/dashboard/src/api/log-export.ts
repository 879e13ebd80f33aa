import { Readable } from 'node:stream';
import { KINDS, type LogRecord } from '@devtrail/kinds';

// A logs result as a file (docs/api.md, "GET /api/projects/:id/logs/export"): CSV (RFC 4180,
// the metadata as its JSON text) or NDJSON (one record per line, as GET /logs answers it),
// streamed page by page from an async source of pages. The stream holds at most
// EXPORT_BUFFER_BYTES of text the client has not taken, beside the page being written.

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

/** Text an export's stream keeps ahead of its client. */
export const EXPORT_BUFFER_BYTES = 1024 * 1024;

/** `first`: the first page, read before the answer's status is sent (a read the limits stop is then a 400 or 503, not a cut body). */
export function exportStream(first: LogRecord[] | undefined, rest: AsyncIterable<LogRecord[]>, format: ExportFormat): Readable {
  const text = (page: LogRecord[]) => page.map((r) => (format === 'csv' ? csvLine(r) : `${JSON.stringify(r)}\n`)).join('');
  async function* lines() {
    if (format === 'csv') yield `${CSV_COLUMNS.join(',')}\r\n`;
    if (first) yield text(first);
    for await (const page of rest) yield text(page);
  }
  // Bytes, not objects: the buffer's bound is in text, however large a page is.
  return Readable.from(lines(), { objectMode: false, highWaterMark: EXPORT_BUFFER_BYTES });
}
