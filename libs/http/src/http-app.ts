import { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import cors from '@fastify/cors';
import type { Logger } from 'pino';
import { routeNotFoundBody, toHttpAnswer } from './http-answer.ts';
import { observeHttp, type Metrics } from '@devtrail/metrics';

// The one Fastify setup every service listens with (receiver, dashboard, embedded):
// every failure answered by the contract's one mapping, JSON 404s, CORS.

const MAX_PATH_PARAM_LENGTH = 2048;

/** Paths browsers on any site may call (docs/api.md#allowed-origins-and-cors): the native ingest routes, the drain, OTLP/HTTP. */
export const CROSS_ORIGIN_PREFIXES = ['/ingest/', '/v1/'] as const;
const crossOriginPath = (url: string) => CROSS_ORIGIN_PREFIXES.some((p) => url.startsWith(p));

export interface HttpAppOptions {
  /**
   * Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (config TRUST_PROXY:
   * addresses, CIDRs, or proxy-addr's names such as `loopback`). None by default: a client
   * cannot choose the address its login attempts are counted under.
   */
  trustProxy?: string[];
  /** The process's registry: every request's duration observed. */
  metrics?: Metrics;
}

/** A Fastify instance with devtrail's JSON error and 404 handling, not yet listening. */
export async function createHttpApp(logger: Logger, bodyLimitBytes: number, opts: HttpAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    bodyLimit: bodyLimitBytes,
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: opts.trustProxy?.length ? opts.trustProxy : false,
    // The admin and read APIs' JSON bodies: a __proto__ or constructor.prototype key is
    // dropped (their schemas allow unknown keys). Ingest bodies have their own parser,
    // which refuses them (contract json-body.ts, docs/api.md).
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    return503OnClosing: true,
    // Path parameters (trace ids, fingerprints, uuids) are bounded by the routes' own
    // schemas (400); the router's limit only stops absurd URLs.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    // A bad URL or an over-long parameter is answered like every other failure.
    frameworkErrors: (err, _request, reply) => {
      const h = toHttpAnswer(err, bodyLimitBytes);
      void (reply as FastifyReply).code(h.status).headers(h.headers).send(h.body);
    },
  });
  if (opts.metrics) observeHttp(app, opts.metrics);
  const ingestCors = {
    origin: true, // per-project origin lists are enforced on the request itself (403)
    methods: ['GET', 'POST', 'OPTIONS'],
    // No allowedHeaders: a preflight is answered with the headers it asks for, so a
    // browser SDK's own headers pass; the key and origin are checked on the request itself.
    exposedHeaders: ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'],
    maxAge: 86400,
  };
  // Only the ways in that browsers on other sites post telemetry to answer CORS. The dashboard's
  // /auth and /api routes are same-origin: no Origin is reflected and no preflight approved
  // (a stranger's page gets no x-csrf-token through), docs/security.md#sessions-and-roles.
  await app.register(cors, {
    delegator: (request, callback) => callback(null, crossOriginPath(request.url) ? ingestCors : { origin: false }),
  });
  lingerOnRefusal(app, bodyLimitBytes);
  app.setErrorHandler((err, request, reply) => {
    const h = toHttpAnswer(err, bodyLimitBytes);
    if (h.status >= 500 && h.status !== 503) request.log.error({ err }, 'unhandled error');
    // One per refused request: debug. The outage behind it is logged once, by the backend's adapter.
    else if (h.status === 503) request.log.debug({ err: (err as Error).message }, 'answering 503');
    return reply.code(h.status).headers(h.headers).send(h.body);
  });
  app.setNotFoundHandler((request, reply) => reply.code(404).send(routeNotFoundBody(request.method, request.url)));
  return app;
}

/** How long, and how much, a refused request's body is still read after its answer. */
export const LINGER_MS = 5000;
export const LINGER_BODY_LIMITS = 4;

/**
 * A request refused while its body is still arriving (413, 401, 415, …): the answer goes out,
 * then the rest of the body is read and dropped; past LINGER_BODY_LIMITS body limits or
 * LINGER_MS the connection is closed, and a body read to its end leaves it open for the next request. Closing at once (Fastify's `Connection: close`)
 * resets a socket the client is still writing to, and its HTTP client reports a network
 * error (`fetch failed`, EPIPE) instead of the answer, and retries (docs/api.md#errors).
 */
function lingerOnRefusal(app: FastifyInstance, bodyLimitBytes: number): void {
  // A callback hook, not an async one: it runs on every answer and almost always returns at once.
  app.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    const hasBody = raw.headers['content-length'] !== undefined || raw.headers['transfer-encoding'] !== undefined;
    // (An injected request has no real socket: nothing to keep open.)
    if (raw.complete || reply.statusCode < 400 || !hasBody || !(raw.socket instanceof Socket)) return done(null, payload);
    reply.removeHeader('connection'); // closed below once the body is read, not while it is sent
    const socket = raw.socket;
    let read = 0;
    const close = () => {
      clearTimeout(timer);
      raw.off('data', count);
      if (!socket.destroyed) socket.destroy();
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER_BODY_LIMITS * bodyLimitBytes) close();
    };
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    raw.on('data', count);
    // Once the body was read to its end and the answer written, the connection is as after any
    // answer: kept alive for the next request. Closing it here, with no `Connection: close` in the
    // answer, would break the client's next request on it (a pooled socket: `fetch failed`).
    let pending = 2;
    const oneDone = () => {
      if (--pending > 0) return;
      clearTimeout(timer);
      raw.off('data', count);
    };
    raw.once('end', oneDone);
    reply.raw.once('finish', oneDone);
    raw.once('error', close);
    raw.resume();
    done(null, payload);
  });
}
