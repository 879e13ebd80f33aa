import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Metrics } from './metrics.ts';

// Request latency of every HTTP service, by route pattern (never the raw URL: its count has
// no bound), and the /metrics route: Prometheus text for scrapers, the JSON view for people
// and for the dashboard (`Accept: application/json`).

export const METRICS_PATH = '/metrics';

/** Observes every request's duration; add it before the routes are registered. */
export function observeHttp(app: FastifyInstance, metrics: Metrics): void {
  const hist = metrics.m.httpRequestDuration;
  // A callback hook, not an async one: it runs on every request, and has nothing to wait for.
  app.addHook('onResponse', (request, reply, done) => {
    hist.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: reply.statusCode }, reply.elapsedTime / 1000);
    done();
  });
}

/** Whether the client asked for JSON rather than the text exposition (Prometheus never does). */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = String(request.headers.accept ?? '');
  return (request.query as { format?: string } | undefined)?.format === 'json' || (/application\/json/i.test(accept) && !/text\/plain|openmetrics/i.test(accept));
}

/** Who may read /metrics on a port the public can reach (config METRICS_TOKEN). */
export interface MetricsAccess {
  token: string | undefined;
}

export const METRICS_REFUSED = 'Metrics are served on METRICS_PORT, to loopback, or with Authorization: Bearer <METRICS_TOKEN> (docs/operations.md#metrics)';

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Whether a request on a public port may read /metrics: it carries the metrics token, or it
 * comes from this host itself (the socket's peer, not X-Forwarded-For) and not through a proxy.
 */
export function metricsAllowed(request: FastifyRequest, access: MetricsAccess): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (access.token && m) {
    const [a, b] = [Buffer.from(m[1]), Buffer.from(access.token)];
    return a.length === b.length && timingSafeEqual(a, b);
  }
  return LOOPBACK.has(request.socket.remoteAddress ?? '') && !FORWARDING_HEADERS.some((h) => h in request.headers);
}

/**
 * GET /metrics: the Prometheus text exposition by default; `json()` for Accept: application/json
 * or ?format=json. `access`: on a service port the public reaches, only what metricsAllowed
 * admits (403 otherwise); without it (a private port), anyone who reaches the port.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, json: () => Promise<Record<string, unknown>>, access?: MetricsAccess): void {
  app.get(METRICS_PATH, async (request, reply) => {
    if (access && !metricsAllowed(request, access)) return reply.code(403).send({ error: METRICS_REFUSED });
    if (wantsJson(request)) return json();
    return reply.type(metrics.contentType).send(await metrics.text());
  });
}

/**
 * The private metrics port (METRICS_PORT): /metrics only, to anyone who reaches it (Prometheus
 * in the cluster), like the OpenTelemetry Collector's own on 8888. Not published by the compose
 * file nor the Helm chart's Service.
 */
export async function serveMetricsPort(
  host: string,
  port: number,
  metrics: Metrics,
  json: () => Promise<Record<string, unknown>>,
): Promise<{ port: number; close(): Promise<void> }> {
  const app = Fastify({ logger: false });
  registerMetricsRoute(app, metrics, json);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'Not found: this port serves /metrics only' }));
  await app.listen({ host, port });
  return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
}
