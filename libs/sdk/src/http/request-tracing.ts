// Framework-neutral core of the request-tracing middleware (docs/sdk.md). Each
// adapter maps its request/response objects onto startRequestTrace() and
// calls finish() when the response is done.
import type { DevtrailClient } from '../client.js';
import { runWithContext, type ActiveContext } from '../context/context-manager.js';
import type { Logger } from '../logger.js';
import type { Scope } from '../scope.js';
import type { Span } from '../span.js';
import { extractTraceContext, type SpanContext } from '../trace-context.js';
import type { HeaderSource } from './headers.js';

export interface RequestTracingOptions {
  /** Span name. Default `{METHOD} {path}`. */
  operationName?: (method: string, path: string) => string;
  /** Path prefixes that are not traced at all. */
  ignorePaths?: string[];
  /**
   * Responses with a status at or above this end the span with status error.
   * Default 500: following OpenTelemetry's HTTP server conventions, 4xx is the
   * client's fault and leaves a server span ok.
   */
  errorStatusCode?: number;
  /** Report exceptions thrown by handlers to /ingest/errors. Default true. */
  captureErrors?: boolean;
}

/** What the middleware attaches to each request (req.devtrail, c.get('devtrail'), request.devtrail). */
export interface RequestTelemetry {
  span: Span;
  /** Logger bound to this request's trace, span and request id. */
  logger: Logger;
  traceId: string;
  spanId: string;
  requestId: string | undefined;
  scope: Scope;
}

export interface RequestInfo {
  method: string;
  path: string;
  headers: HeaderSource | undefined;
  /** Parent to use when the headers carry no trace context (e.g. the framework's own OTel span). */
  fallbackParent?: SpanContext;
}

export interface FinishInfo {
  route?: string;
  aborted?: boolean;
}

export interface RequestTrace {
  telemetry: RequestTelemetry;
  /** Context to run the rest of the request in. */
  context: ActiveContext;
  /** x-trace-id and x-span-id, to set on the response. */
  responseHeaders: Record<string, string>;
  /** Reports a handler exception once, inside the request's context. */
  captureError(error: unknown): void;
  /** Ends the span; later calls are ignored. */
  finish(statusCode: number, info?: FinishInfo): void;
}

export function isIgnoredPath(path: string, ignorePaths: readonly string[] | undefined): boolean {
  return !!ignorePaths?.some((prefix) => prefix !== '' && path.startsWith(prefix));
}

export function startRequestTrace(client: DevtrailClient, request: RequestInfo, options: RequestTracingOptions = {}): RequestTrace | undefined {
  if (isIgnoredPath(request.path, options.ignorePaths)) return undefined;
  const method = request.method.toUpperCase();
  const incoming = extractTraceContext(request.headers);
  if (!incoming.traceId && request.fallbackParent) {
    incoming.traceId = request.fallbackParent.traceId;
    incoming.parentSpanId = request.fallbackParent.spanId;
  }
  const operation = options.operationName?.(method, request.path) ?? `${method} ${request.path}`;
  const scope = client.createScope();
  // Detached: the caller's headers, not whatever span happens to be active in the server, decide the parent.
  const span = client.startManualSpan(operation, {
    traceId: incoming.traceId,
    parentSpanId: incoming.parentSpanId,
    sampled: incoming.sampled,
    scope,
    detached: true,
    metadata: { 'http.request.method': method, 'url.path': request.path },
  });
  const requestId = incoming.requestId;
  const context: ActiveContext = { span, requestId, scope };
  const cutoff = options.errorStatusCode ?? 500;
  let captured = false;
  let logger: Logger | undefined;
  // Made when first used: a request that never asks for them costs no ids and no logger (docs/sdk.md#overhead).
  const telemetry: RequestTelemetry = {
    span,
    get logger() {
      return (logger ??= client.logger.child({ traceId: span.traceId, spanId: span.spanId, requestId }));
    },
    get traceId() {
      return span.traceId;
    },
    get spanId() {
      return span.spanId;
    },
    requestId,
    scope,
  };

  return {
    telemetry,
    context,
    // Also for an unsampled request: its logs carry these ids (two ids from the pool, ids.ts).
    responseHeaders: { 'x-trace-id': span.traceId, 'x-span-id': span.spanId },
    captureError(error) {
      if (captured || options.captureErrors === false) return;
      captured = true;
      span.recordError(error);
      runWithContext(context, () => client.captureError(error, { severity: 'high' }));
    },
    finish(statusCode, info = {}) {
      if (span.ended) return;
      span.setAttribute('http.response.status_code', statusCode);
      if (info.route) {
        span.setAttribute('http.route', info.route);
        // Named by the route (GET /orders/:id), not the path, so one endpoint is one operation.
        if (!options.operationName) span.operation = `${method} ${info.route}`;
      }
      if (info.aborted) span.setAttribute('http.aborted', true);
      if (requestId) span.setAttribute('request_id', requestId);
      // Status follows the code only: a handled exception that still produced a 2xx is not a failed request.
      span.end({ status: statusCode >= cutoff ? 'error' : 'ok' });
    },
  };
}
