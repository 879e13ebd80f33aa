// OTLP/HTTP's paths (docs/otlp.md), apart from the routes: the counters, the quota gate and
// the OpenAPI document name them too.

export const OTLP_PATHS = { logs: '/v1/logs', traces: '/v1/traces', metrics: '/v1/metrics' } as const;
