import type { IngestTarget } from '../../support/ingest-targets.ts';
import type { Table } from './expected-records.ts';

// Everything of the project the read API returns, table by table, over the widest range
// the column type holds (DateTime64(3, 'UTC'): 1900-01-01 .. 2299-12-31), paging where
// the route pages. Any non-200 answer is itself a finding and is thrown.

const RANGE = 'from=1900-01-01T00:00:00.000Z&to=2299-12-31T23:59:59.999Z';

async function get(t: IngestTarget, path: string): Promise<any> {
  const r = await t.read(path);
  if (r.status !== 200) throw new Error(`read API GET ${path} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}

async function paged(t: IngestTarget, route: string, field: string): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const body = await get(t, `${route}?${RANGE}&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    rows.push(...body[field]);
    cursor = body.next_cursor;
    if (!cursor) break;
  }
  return rows;
}

export async function storedRows(t: IngestTarget, tables: Set<Table>): Promise<Record<Table, any[]>> {
  const out: Record<Table, any[]> = { logs: [], errors: [], spans: [], llm: [] };
  if (tables.has('logs')) out.logs = await paged(t, '/logs', 'logs');
  if (tables.has('errors')) out.errors = await paged(t, '/errors', 'errors');
  if (tables.has('spans')) out.spans = (await get(t, `/spans?${RANGE}&limit=1000`)).spans;
  if (tables.has('llm')) out.llm = (await get(t, `/llm-usage?${RANGE}`)).usage;
  return out;
}

/** The spans GET /traces/:traceId returns (the way a user opens one trace), or the answer that was not 200. */
export async function traceSpans(t: IngestTarget, traceId: string): Promise<{ spans: any[] } | { status: number; body: unknown }> {
  const r = await t.read(`/traces/${encodeURIComponent(traceId)}`);
  return r.status === 200 ? { spans: r.body.spans } : { status: r.status, body: r.body };
}
