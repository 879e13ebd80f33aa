export { createSink, createSinks, sinkOptions, SINK_NAMES, type SinkOptions } from './sinks.ts';
export { consumersHttp, consumerMetrics } from './consumers-service.ts';
export { watchDeletedProjects, type DeletedProjects } from './deleted-projects.ts';
