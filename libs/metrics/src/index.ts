export { METRICS, REFUSAL_REASONS, PROCESS_METRIC_PREFIXES, type MetricDef, type MetricKey, type MetricType, type RefusalReason } from './catalog.ts';
export { createMetrics, byLabel, type Metrics, type MetricSet, type MetricsOptions, type Labels } from './metrics.ts';
export { observeHttp, registerMetricsRoute, serveMetricsPort, metricsAllowed, wantsJson, METRICS_PATH, METRICS_REFUSED, type MetricsAccess } from './http.ts';
export { refusalReason } from './outcomes.ts';
