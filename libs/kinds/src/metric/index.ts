import { defineKind } from '../kind.ts';
import { METRIC_FIELDS } from './event.ts';
import { metricBatchSchema, metricsToEvents, splitMetricBatch } from './request.ts';
import { metricsFromOtlp } from './otlp.ts';
import { METRIC_PATH, metricDocs } from './docs.ts';

// Metrics: data points of gauges, sums, histograms, exponential histograms and summaries, a
// batch per request (also from OTLP metrics, otlp.ts), one event per point; read as time
// series by read.ts (docs/api.md#metrics).
export const metric = defineKind({
  id: 'metric',
  name: 'metrics',
  path: METRIC_PATH,
  request: metricBatchSchema,
  fields: METRIC_FIELDS,
  toEvents: metricsToEvents,
  split: splitMetricBatch,
  batchField: 'metrics',
  respond: (events) => ({ ok: true, count: events.length }),
  table: {
    receivedAt: true,
    indexes: ['idx_type type TYPE set(8) GRANULARITY 4', 'idx_service service TYPE set(256) GRANULARITY 4'],
    engine: 'ReplacingMergeTree',
    partitionBy: 'toYYYYMMDD(received_at)',
    // By metric, then time: a chart reads one metric's range, contiguous.
    orderBy: '(project_id, metric, time, event_id)',
    ttlColumn: 'received_at',
    timeColumn: 'time',
  },
  otlp: metricsFromOtlp,
  docs: metricDocs,
});
