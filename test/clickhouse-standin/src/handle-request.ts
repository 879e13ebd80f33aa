import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fromEngineError, notImplemented } from './clickhouse-exception.ts';
import { HONOURED_SETTINGS, isRead, priorityOf, withSettings } from './query-settings.ts';
import type { ScheduledEngine } from './scheduled-engine.ts';

// A request as @clickhouse/client sends one: SQL in the body (queries and
// commands), or `query=INSERT ... FORMAT x` in the URL with the rows in the body.
interface ParsedRequest {
  sql: string;
  /** The rows of an INSERT sent in the body after a `query` parameter. */
  insertBody?: string;
  database: string;
  /** `param_*` values as the client sent them (the engine's escaped text). */
  params: Record<string, string>;
  /** Settings the stand-in honours (query-settings.ts), as sent. */
  settings: Map<string, string>;
}

// Any other URL parameter is a setting on a server; the stand-in applies those of
// query-settings.ts and refuses the rest rather than ignoring them.
const HANDLED = new Set(['query', 'query_id', 'database']);

export function createRequestHandler(engine: ScheduledEngine) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let queryId: string = randomUUID();
    try {
      const url = new URL(req.url ?? '/', 'http://standin');
      if (url.pathname === '/ping') {
        req.resume();
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=UTF-8' }).end('Ok.\n');
        return;
      }
      queryId = url.searchParams.get('query_id') || queryId;
      const request = await parseRequest(req, url);
      const body = await engine.run(withSettings(request.sql, request.settings), request.database, request.params, {
        kind: isRead(request.sql) ? 'read' : 'write',
        priority: priorityOf(request.settings),
      });
      res.writeHead(200, { 'X-ClickHouse-Query-Id': queryId, 'X-ClickHouse-Summary': summaryOf(request), 'Content-Length': body.length }).end(body);
    } catch (error) {
      if (req.socket.destroyed) return; // the client went away: nobody to answer
      const exception = fromEngineError(error);
      process.stderr.write(`clickhouse-standin: ${exception.httpStatus} query_id=${queryId}: ${exception.render(engine.version)}`);
      res
        .writeHead(exception.httpStatus, {
          'Content-Type': 'text/plain; charset=UTF-8',
          'X-ClickHouse-Query-Id': queryId,
          'X-ClickHouse-Exception-Code': String(exception.code),
        })
        .end(exception.render(engine.version));
    }
  };
}

/**
 * The X-ClickHouse-Summary header clients read an insert's figures from. The stand-in counts an
 * insert's rows as the lines of its body and its bytes as the body's size (a server counts the
 * bytes of the block it wrote); other statements report zeros.
 */
function summaryOf(request: ParsedRequest): string {
  const data = request.insertBody ?? '';
  const rows = data === '' ? 0 : data.split('\n').filter((l) => l.trim() !== '').length;
  const bytes = Buffer.byteLength(data);
  return JSON.stringify({
    read_rows: '0',
    read_bytes: '0',
    written_rows: String(rows),
    written_bytes: String(bytes),
    total_rows_to_read: '0',
    result_rows: String(rows),
    result_bytes: String(bytes),
    elapsed_ns: '0',
  });
}

async function parseRequest(req: IncomingMessage, url: URL): Promise<ParsedRequest> {
  const params: Record<string, string> = {};
  const settings = new Map<string, string>();
  for (const [key, value] of url.searchParams) {
    if (key.startsWith('param_')) params[key.slice('param_'.length)] = value;
    else if (HONOURED_SETTINGS.has(key)) settings.set(key, value);
    else if (!HANDLED.has(key)) throw notImplemented(`The stand-in applies no settings or HTTP options but ${[...HONOURED_SETTINGS].join(', ')} (got '${key}')`);
  }
  const encoding = req.headers['content-encoding'];
  if (encoding && encoding !== 'identity') throw notImplemented(`The stand-in takes uncompressed bodies only (got '${encoding}')`);
  if (/^multipart\//i.test(req.headers['content-type'] ?? '')) throw notImplemented('The stand-in takes no multipart bodies');
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  // The server reads the `query` parameter, a line break, then the body.
  const query = url.searchParams.get('query');
  // An INSERT's rows follow its SQL: there is no place for a SETTINGS clause after them.
  if (query && settings.size > 0) throw notImplemented('The stand-in applies settings to statements in the body only, not to an INSERT with rows');
  return {
    sql: query ? (body ? `${query}\n${body}` : query) : body,
    insertBody: query && /^\s*INSERT\b/i.test(query) ? body : undefined,
    database: url.searchParams.get('database') || 'default',
    params,
    settings,
  };
}
