// OTLP/HTTP's paths (docs/otlp.md), apart from the routes: the counters, the quota gate and
// the OpenAPI document name them too.

export const OTLP_PATHS = { logs: '/v1/logs', traces: '/v1/traces', metrics: '/v1/metrics' } as const;

export const METRICS_NOT_SUPPORTED =
  'devtrail does not accept OTLP metrics: send logs to /v1/logs and traces to /v1/traces. Point the metrics exporter elsewhere or turn it off.';
