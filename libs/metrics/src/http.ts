import type { FastifyInstance, FastifyRequest } from 'fastify';
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

/** GET /metrics: the Prometheus text exposition by default; `json()` for Accept: application/json or ?format=json. */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, json: () => Promise<Record<string, unknown>>): void {
  app.get(METRICS_PATH, async (request, reply) => {
    if (wantsJson(request)) return json();
    return reply.type(metrics.contentType).send(await metrics.text());
  });
}
