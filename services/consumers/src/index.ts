export { createSink, createSinks, sinkOptions, SINK_NAMES, type SinkOptions } from './sinks.ts';
export { consumersHttp, consumerMetrics } from './consumers-service.ts';
export { alertsIfEnabled, alertsFromConfig, sinkNamesOf } from './alerts.ts';
