// Wrapper for App Router route handlers (app/**/route.ts): one span per
// request, trace headers on the response, thrown errors reported.
import type { DevtrailClient } from '../client.js';
import { runWithContext } from '../context/context-manager.js';
import { startRequestTrace, type RequestTracingOptions } from '../http/request-tracing.js';
import { controlFlowStatus, isNextControlFlow } from './control-flow.js';
import { flushIfServerless, getNextClient, installNextAsyncContext } from './next-client.js';
import { activeOtelSpanContext } from '../otel/active-span.js';

export interface RouteHandlerOptions extends RequestTracingOptions {
  client?: DevtrailClient;
  /** Flush before returning. Default: on serverless platforms. */
  flush?: boolean;
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    // Responses from fetch() or Response.redirect() have immutable headers: copy first.
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}

export function withRouteHandler<C = unknown>(
  handler: (request: Request, context: C) => Response | Promise<Response>,
  options: RouteHandlerOptions = {},
): (request: Request, context: C) => Promise<Response> {
  return async (request, context) => {
    installNextAsyncContext();
    const client = options.client ?? getNextClient();
    const trace = startRequestTrace(
      client,
      {
        method: request.method,
        path: new URL(request.url, 'http://localhost').pathname,
        headers: request.headers,
        fallbackParent: activeOtelSpanContext(),
      },
      options,
    );
    if (!trace) return handler(request, context);
    try {
      const response = await runWithContext(trace.context, () => handler(request, context));
      trace.finish(response.status);
      return withHeaders(response, trace.responseHeaders);
    } catch (err) {
      if (isNextControlFlow(err)) trace.finish(controlFlowStatus(err));
      else {
        trace.captureError(err);
        trace.finish(500);
      }
      throw err;
    } finally {
      await flushIfServerless(client, options.flush);
    }
  };
}
