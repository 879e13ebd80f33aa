import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toChdbParam } from './bound-params.ts';
import type { ChdbEngine } from './chdb-engine.ts';
import { fromEngineError, notImplemented } from './clickhouse-exception.ts';

// A request as @clickhouse/client sends one: SQL in the body (queries and
// commands), or `query=INSERT ... FORMAT x` in the URL with the rows in the body.
interface ParsedRequest {
  sql: string;
  database: string;
  params: Record<string, string | null>;
}

// Any other URL parameter is a setting on a server; the stand-in applies none,
// and says so rather than ignoring it.
const HANDLED = new Set(['query', 'query_id', 'database']);

export function createRequestHandler(engine: ChdbEngine) {
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
      const body = await engine.run(request.sql, request.database, request.params);
      res.writeHead(200, { 'X-ClickHouse-Query-Id': queryId, 'Content-Length': body.length }).end(body);
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

async function parseRequest(req: IncomingMessage, url: URL): Promise<ParsedRequest> {
  const params: Record<string, string | null> = {};
  for (const [key, value] of url.searchParams) {
    if (key.startsWith('param_')) params[key.slice('param_'.length)] = toChdbParam(value);
    else if (!HANDLED.has(key)) throw notImplemented(`The stand-in applies no settings or HTTP options (got '${key}')`);
  }
  const encoding = req.headers['content-encoding'];
  if (encoding && encoding !== 'identity') throw notImplemented(`The stand-in takes uncompressed bodies only (got '${encoding}')`);
  if (/^multipart\//i.test(req.headers['content-type'] ?? '')) throw notImplemented('The stand-in takes no multipart bodies');
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  // The server reads the `query` parameter, a line break, then the body.
  const query = url.searchParams.get('query');
  return {
    sql: query ? (body ? `${query}\n${body}` : query) : body,
    database: url.searchParams.get('database') || 'default',
    params,
  };
}
