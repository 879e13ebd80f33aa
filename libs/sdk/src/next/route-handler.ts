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
  /** The route's path as its folder names it (`/orders/[id]`), for the span's name; default: worked out from `params`. */
  route?: string;
  /** Flush before returning. Default: on serverless platforms. */
  flush?: boolean;
}

/** `/orders/101` with params `{ id: '101' }` is `/orders/[id]` (a catch-all's segments `[...slug]`); undefined without params. */
export function routeFromParams(path: string, params: unknown): string | undefined {
  if (!params || typeof params !== 'object') return undefined;
  const segments = path.split('/');
  let named = false;
  for (const [key, value] of Object.entries(params as Record<string, unknown>)) {
    if (typeof value === 'string') {
      const i = segments.indexOf(encodeURIComponent(value));
      if (i > 0) {
        segments[i] = `[${key}]`;
        named = true;
      }
    } else if (Array.isArray(value) && value.length > 0) {
      const parts = value.map((v) => encodeURIComponent(String(v)));
      const i = segments.findIndex((_, at) => parts.every((p, k) => segments[at + k] === p));
      if (i > 0) {
        segments.splice(i, parts.length, `[...${key}]`);
        named = true;
      }
    }
  }
  return named ? segments.join('/') : undefined;
}

async function routeOf(options: RouteHandlerOptions, path: string, context: unknown): Promise<string | undefined> {
  if (options.route) return options.route;
  try {
    // Next 15 passes params as a promise, earlier versions as an object.
    return routeFromParams(path, await (context as { params?: unknown } | undefined)?.params);
  } catch {
    return undefined;
  }
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
    const path = new URL(request.url, 'http://localhost').pathname;
    const trace = startRequestTrace(
      client,
      {
        method: request.method,
        path,
        headers: request.headers,
        fallbackParent: activeOtelSpanContext(),
      },
      options,
    );
    if (!trace) return handler(request, context);
    const route = await routeOf(options, path, context);
    try {
      const response = await runWithContext(trace.context, () => handler(request, context));
      trace.finish(response.status, { route });
      return withHeaders(response, trace.responseHeaders);
    } catch (err) {
      if (isNextControlFlow(err)) trace.finish(controlFlowStatus(err), { route });
      else {
        trace.captureError(err);
        trace.finish(500, { route });
      }
      throw err;
    } finally {
      await flushIfServerless(client, options.flush);
    }
  };
}
