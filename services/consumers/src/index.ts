export { createSink, createSinks, sinkOptions, SINK_NAMES, type SinkOptions } from './sinks.ts';
export { consumersHttp } from './consumers-service.ts';
export { consumerMetrics, sinkHooks, watchSinks } from './sink-metrics.ts';
export { watchDeletedProjects, type DeletedProjects } from './deleted-projects.ts';
export { alertsIfEnabled, alertsFromConfig, sinkNamesOf } from './alerts.ts';
