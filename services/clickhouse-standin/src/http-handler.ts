import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import type { ChdbEngine } from './chdb-engine.ts';
import { type ClickHouseException, clickhouseException, fromEngineError } from './clickhouse-exception.ts';
import type { ConnectionState } from './connection-state.ts';
import type { EngineInfo } from './engine-info.ts';
import { httpStatusForException } from './exception-status.ts';
import { executeStatement } from './execute-statement.ts';
import { negotiateEncoding, sendResponse, type ResponseEncoding } from './http-response.ts';
import { multipartBoundary, parseMultipartForm } from './multipart-form.ts';
import { readRequestBody } from './request-body.ts';
import { parseRequestParams, type RequestParams } from './request-params.ts';
import { QueueFullError, type SerialQueue } from './serial-queue.ts';
import { scanStatement, type StatementShape } from './sql-statement.ts';

export interface HandlerDeps {
  engine: ChdbEngine;
  state: ConnectionState;
  info: EngineInfo;
  queue: SerialQueue;
}

const TEXT_PLAIN = 'text/plain; charset=UTF-8';
const OK = Buffer.from('Ok.\n');
// What a readonly (GET) request may run; SET/USE only change that request's context.
const READONLY_KINDS = new Set(['SELECT', 'WITH', 'SHOW', 'DESCRIBE', 'DESC', 'EXISTS', 'EXPLAIN', 'CHECK', 'SET', 'USE']);

// Routes like ClickHouse's default HTTP handlers: /ping and a bare GET / answer
// "Ok.", every other request is a query.
export function createRequestHandler(deps: HandlerDeps) {
  const displayName = hostname();
  return (req: IncomingMessage, res: ServerResponse): void => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://standin');
    } catch {
      res.writeHead(400, { 'Content-Type': TEXT_PLAIN }).end('Bad request URI\n');
      return;
    }
    const method = req.method ?? 'GET';
    const isRead = method === 'GET' || method === 'HEAD';
    if (url.pathname === '/ping' || url.pathname === '/replicas_status' || (url.pathname === '/' && isRead && !url.searchParams.has('query'))) {
      req.resume();
      void sendResponse(res, 200, { 'Content-Type': TEXT_PLAIN }, OK);
      return;
    }
    void handleQuery(deps, displayName, req, res, url);
  };
}

async function handleQuery(
  deps: HandlerDeps,
  displayName: string,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const headers: Record<string, string> = { 'X-ClickHouse-Server-Display-Name': displayName };
  let params: RequestParams | undefined;
  let encoding: ResponseEncoding | undefined;
  try {
    const boundary = multipartBoundary(req.headers['content-type']);
    let input: Buffer;
    if (boundary) {
      const form = parseMultipartForm(await readRequestBody(req), boundary);
      if (form.hasFiles) throw clickhouseException('NOT_IMPLEMENTED', 'External data (multipart file parts) is not supported by the stand-in');
      params = parseRequestParams([...url.searchParams, ...form.fields], req.headers, req.method ?? 'GET');
      input = Buffer.from(params.query);
    } else {
      params = parseRequestParams(url.searchParams, req.headers, req.method ?? 'GET');
      // The server reads the `query` parameter, a line break, then the body.
      input = await readRequestBody(req, params.query ? Buffer.from(`${params.query}\n`) : undefined);
    }
    headers['X-ClickHouse-Query-Id'] = params.queryId;
    headers['X-ClickHouse-Timezone'] = deps.info.timezone;
    if (params.addCorsHeader && req.headers.origin) headers['Access-Control-Allow-Origin'] = '*';
    encoding = negotiateEncoding(req.headers['accept-encoding'], params.enableHttpCompression);

    const shape = scanStatement(input);
    rejectUnsupported(params, shape, req.method === 'GET' || req.method === 'HEAD');
    const requestParams = params;
    const result = await deps.queue.run(() => executeStatement(deps.engine, deps.state, requestParams, input, shape));

    headers['X-ClickHouse-Summary'] = JSON.stringify(result.summary);
    headers['Content-Type'] = TEXT_PLAIN;
    if (result.format) {
      headers['X-ClickHouse-Format'] = result.format;
      headers['Content-Type'] = deps.info.contentTypes.get(result.format.toLowerCase()) ?? TEXT_PLAIN;
    }
    await sendResponse(res, 200, headers, result.body, encoding, params.compressionLevel);
  } catch (error) {
    const exception = toException(error);
    if (!exception) {
      // The client went away mid-request; there is nobody to answer.
      res.destroy();
      return;
    }
    const status = error instanceof QueueFullError ? 503 : httpStatusForException(exception.code);
    logError(status, exception, params?.queryId);
    headers['Content-Type'] = TEXT_PLAIN;
    headers['X-ClickHouse-Exception-Code'] = String(exception.code);
    const body = Buffer.from(exception.render(deps.info.version));
    await sendResponse(res, status, headers, body, encoding, params?.compressionLevel).catch(() => res.destroy());
  }
}

// Checks the server makes before running anything.
function rejectUnsupported(params: RequestParams, shape: StatementShape, viaGet: boolean): void {
  if (params.nativeCompression) {
    throw clickhouseException('NOT_IMPLEMENTED', "ClickHouse's native compression (compress=1 / decompress=1) is not supported by the stand-in");
  }
  if (shape.kind === '') throw clickhouseException('SYNTAX_ERROR', 'Empty query');
  if (shape.badStart) {
    const { position, token } = shape.badStart;
    throw clickhouseException('SYNTAX_ERROR', `Syntax error: failed at position ${position} (${token}): ${token}. Expected one of: Query`);
  }
  if (shape.multiStatement) throw clickhouseException('SYNTAX_ERROR', 'Multi-statements are not allowed');
  if (shape.intoOutfile) throw clickhouseException('INTO_OUTFILE_NOT_ALLOWED', 'INTO OUTFILE is not allowed');
  if (params.readonly && !READONLY_KINDS.has(shape.kind)) {
    const hint = viaGet ? '. For queries over HTTP, method GET implies readonly. You should use method POST for modifying queries' : '';
    throw clickhouseException('READONLY', `Cannot execute query in readonly mode${hint}`);
  }
}

function toException(error: unknown): ClickHouseException | undefined {
  if (error instanceof QueueFullError) {
    return clickhouseException('TOO_MANY_SIMULTANEOUS_QUERIES', `Too many simultaneous queries. Maximum: ${error.limit}`);
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNABORTED') return undefined;
  return fromEngineError(error);
}

function logError(status: number, exception: ClickHouseException, queryId: string | undefined): void {
  const message = exception.message.replace(/\s+/g, ' ').slice(0, 500);
  process.stderr.write(
    `clickhouse-standin: ${status} Code: ${exception.code} (${exception.codeName}) query_id=${queryId ?? '-'}: ${message}\n`,
  );
}
