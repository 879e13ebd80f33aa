// Express middleware (docs/sdk.md). Typed against the few members it uses, so
// the package needs neither express nor @types/express to compile.
import type { DevtrailClient } from './client.js';
import { runWithContext } from './context/context-manager.js';
import { pathOf } from './http/headers.js';
import { startRequestTrace, type RequestTelemetry, type RequestTracingOptions } from './http/request-tracing.js';
import { installNodeAsyncContext } from './node/install-async-context.js';

installNodeAsyncContext();

export type { RequestTelemetry, RequestTracingOptions } from './http/request-tracing.js';

export interface ExpressLikeRequest {
  method: string;
  url: string;
  originalUrl?: string;
  baseUrl?: string;
  headers: Record<string, string | string[] | undefined>;
  route?: { path?: unknown };
}

export interface ExpressLikeResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  once(event: string, listener: () => void): unknown;
}

type Next = (err?: unknown) => void;
const TELEMETRY = Symbol.for('devtrail.sdk.request');
const TRACE = Symbol('devtrail.sdk.express.trace');
type Decorated = ExpressLikeRequest & {
  devtrail?: RequestTelemetry;
  [TELEMETRY]?: RequestTelemetry;
  [TRACE]?: ReturnType<typeof startRequestTrace>;
};

/** The request's telemetry (span, logger, ids), or undefined if the request is not traced. */
export function getRequestTelemetry(req: object): RequestTelemetry | undefined {
  return (req as Decorated)[TELEMETRY];
}

function routeOf(req: ExpressLikeRequest): string | undefined {
  const path = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : undefined;
}

export function devtrailExpress(client: DevtrailClient, options: RequestTracingOptions = {}) {
  return function devtrailMiddleware(req: ExpressLikeRequest, res: ExpressLikeResponse, next: Next): void {
    const trace = startRequestTrace(
      client,
      {
        method: req.method,
        path: pathOf(req.originalUrl ?? req.url),
        headers: req.headers,
      },
      options,
    );
    if (!trace) {
      next();
      return;
    }
    const r = req as Decorated;
    r.devtrail = r[TELEMETRY] = trace.telemetry;
    r[TRACE] = trace;
    for (const [name, value] of Object.entries(trace.responseHeaders)) res.setHeader(name, value);
    // 'close' without 'finish' means the client went away before the response completed.
    res.once('finish', () => trace.finish(res.statusCode, { route: routeOf(req) }));
    res.once('close', () => trace.finish(res.statusCode, { route: routeOf(req), aborted: true }));
    runWithContext(trace.context, () => next());
  };
}

/**
 * Error-handling middleware: reports the error with the request's trace id,
 * then passes it on to your own handlers. Register it after your routes.
 */
export function devtrailErrorHandler(client: DevtrailClient) {
  return function devtrailErrors(err: unknown, req: ExpressLikeRequest, _res: ExpressLikeResponse, next: Next): void {
    const trace = (req as Decorated)[TRACE];
    if (trace) trace.captureError(err);
    else client.captureError(err, { severity: 'high' });
    next(err);
  };
}
