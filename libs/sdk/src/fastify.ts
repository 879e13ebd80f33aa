// Fastify plugin with the same behaviour as the Express and Hono middleware.
// Marked skip-override (what fastify-plugin does) so its hooks cover the whole
// app rather than only an encapsulated child context, without depending on
// fastify-plugin at runtime.
import type { DevtrailClient } from './client.js';
import { runWithContext } from './context/context-manager.js';
import { pathOf } from './http/headers.js';
import { startRequestTrace, type RequestTelemetry, type RequestTrace, type RequestTracingOptions } from './http/request-tracing.js';
import { installNodeAsyncContext } from './node/install-async-context.js';

installNodeAsyncContext();

export type { RequestTelemetry, RequestTracingOptions } from './http/request-tracing.js';

export interface DevtrailFastifyOptions extends RequestTracingOptions {
  client: DevtrailClient;
}

type Done = (err?: Error) => void;

export interface FastifyLikeRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  routeOptions?: { url?: string };
}

export interface FastifyLikeReply {
  statusCode: number;
  header(name: string, value: string): unknown;
}

/** The instance members used; methods so Fastify's overloaded signatures are assignable. */
export interface FastifyLikeInstance {
  addHook(name: string, hook: (...args: any[]) => unknown): unknown;
  decorateRequest(name: string, value: unknown): unknown;
  hasRequestDecorator(name: string): boolean;
}

const traces = new WeakMap<object, RequestTrace>();

/** The request's telemetry (span, logger, ids), or undefined if the request is not traced. */
export function getRequestTelemetry(request: object): RequestTelemetry | undefined {
  return traces.get(request)?.telemetry;
}

function devtrailFastifyPlugin(fastify: FastifyLikeInstance, options: DevtrailFastifyOptions, done: Done): void {
  const { client, ...tracing } = options;
  if (!client) {
    done(new Error('@devtrail/sdk/fastify: pass { client } when registering the plugin'));
    return;
  }
  // Declared up front so Fastify keeps one request object shape.
  if (!fastify.hasRequestDecorator('devtrail')) fastify.decorateRequest('devtrail', null);

  fastify.addHook('onRequest', (request: FastifyLikeRequest & { devtrail?: RequestTelemetry }, reply: FastifyLikeReply, next: Done) => {
    const trace = startRequestTrace(client, { method: request.method, path: pathOf(request.url), headers: request.headers }, tracing);
    if (!trace) return next();
    traces.set(request, trace);
    request.devtrail = trace.telemetry;
    for (const [name, value] of Object.entries(trace.responseHeaders)) reply.header(name, value);
    runWithContext(trace.context, () => next());
  });

  // Defensive: if anything between onRequest and the handler (a content-type
  // parser, another plugin's callback-style hook) resumed outside the request's
  // async context, re-entering here puts the handler back inside its span.
  fastify.addHook('preHandler', (request: FastifyLikeRequest, _reply: FastifyLikeReply, next: Done) => {
    const trace = traces.get(request);
    if (!trace) return next();
    runWithContext(trace.context, () => next());
  });

  fastify.addHook('onError', (request: FastifyLikeRequest, _reply: FastifyLikeReply, error: Error, next: Done) => {
    traces.get(request)?.captureError(error);
    next();
  });

  fastify.addHook('onResponse', (request: FastifyLikeRequest, reply: FastifyLikeReply, next: Done) => {
    traces.get(request)?.finish(reply.statusCode, { route: request.routeOptions?.url });
    next();
  });

  try {
    // Fastify >= 4.19; on older versions an aborted request's span simply never ends.
    fastify.addHook('onRequestAbort', (request: FastifyLikeRequest, next: Done) => {
      traces.get(request)?.finish(499, { route: request.routeOptions?.url, aborted: true });
      next();
    });
  } catch {
    // hook not supported
  }
  done();
}

const meta = devtrailFastifyPlugin as unknown as Record<symbol, unknown>;
meta[Symbol.for('skip-override')] = true;
meta[Symbol.for('fastify.display-name')] = '@devtrail/sdk';
meta[Symbol.for('plugin-meta')] = { name: '@devtrail/sdk', fastify: '>=4' };

export const devtrailFastify = devtrailFastifyPlugin;
export default devtrailFastifyPlugin;
