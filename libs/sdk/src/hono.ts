// Hono middleware (docs/sdk.md). Hono also runs outside Node (workers, Deno,
// Bun), so this entry imports nothing Node-only; on Node the package's main
// entry has already switched on AsyncLocalStorage context.
import type { DevtrailClient } from './client.js';
import { runWithContext } from './context/context-manager.js';
import { startRequestTrace, type RequestTelemetry, type RequestTracingOptions } from './http/request-tracing.js';

export type { RequestTelemetry, RequestTracingOptions } from './http/request-tracing.js';

/** The Context members used; declared as methods so Hono's generic Context is assignable. */
export interface HonoLikeContext {
  req: { method: string; path: string; raw: Request; routePath?: string };
  res: Response;
  error?: Error;
  header(name: string, value: string): void;
  set(key: string, value: unknown): void;
  get(key: string): unknown;
}

export const HONO_CONTEXT_KEY = 'devtrail';

/** The request's telemetry (span, logger, ids), or undefined if the request is not traced. */
export function getRequestTelemetry(c: Pick<HonoLikeContext, 'get'>): RequestTelemetry | undefined {
  return c.get(HONO_CONTEXT_KEY) as RequestTelemetry | undefined;
}

export function devtrailHono(client: DevtrailClient, options: RequestTracingOptions = {}) {
  return async function devtrailMiddleware(c: HonoLikeContext, next: () => Promise<void>): Promise<void> {
    const trace = startRequestTrace(client, { method: c.req.method, path: c.req.path, headers: c.req.raw.headers }, options);
    if (!trace) return next();
    c.set(HONO_CONTEXT_KEY, trace.telemetry);
    try {
      await runWithContext(trace.context, () => next());
    } catch (err) {
      // Only reached when the app has no onError handler; Hono then answers 500.
      trace.captureError(err);
      trace.finish(500, { route: c.req.routePath });
      throw err;
    }
    // Hono records a handler exception on c.error after app.onError has produced the response.
    if (c.error) trace.captureError(c.error);
    // After next(): c.header() copies an immutable response before setting, so this works for any handler.
    for (const [name, value] of Object.entries(trace.responseHeaders)) c.header(name, value);
    trace.finish(c.res.status, { route: c.req.routePath });
  };
}
