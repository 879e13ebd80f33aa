export { createSink, createSinks, sinkOptions, SINK_NAMES, type SinkOptions } from './sinks.ts';
export { consumersHttp, consumerMetrics } from './consumers-service.ts';
export { eventsPerMinute } from './examples/events-per-minute.ts';
export { watchDeletedProjects, type DeletedProjects } from './deleted-projects.ts';
