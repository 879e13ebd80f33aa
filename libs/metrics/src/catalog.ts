// Every metric devtrail exports, defined once: name, type, labels and meaning. The registry
// (metrics.ts) builds them from here, docs/operations.md lists them, and the Grafana
// dashboard's test checks its queries against these names.
//
// Names follow the OpenTelemetry Collector's own telemetry (`otelcol_receiver_accepted_spans`,
// `otelcol_exporter_send_failed_…`): `devtrail_<component>_<outcome>_<unit>`, counters end in
// `_total`, durations are histograms in seconds. Labels are bounded by design: a kind (4), a
// reason (a fixed list), a route pattern, a table, a consumer, a partition number. Never a
// project, a key, a user or a raw URL (their count has no bound).

export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricDef {
  name: string;
  type: MetricType;
  help: string;
  labels: readonly string[];
  buckets?: readonly number[];
}

/** Why a request was refused: its HTTP status, as an operator reads it. */
export const REFUSAL_REASONS = ['invalid', 'too_large', 'rate_limited', 'unauthorized', 'origin', 'unavailable', 'internal'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const INSERT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const VISIBLE_BUCKETS = [0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5, 10, 30, 60, 120, 300, 900];

export const METRICS = {
  // Receiver: every request to an ingest route ends in one of these.
  acceptedEvents: {
    name: 'devtrail_receiver_accepted_events_total',
    type: 'counter',
    help: 'Events answered 200, each durable in Kafka (per kind; a request of n events counts n).',
    labels: ['kind'],
  },
  refusedRequests: {
    name: 'devtrail_receiver_refused_requests_total',
    type: 'counter',
    help: 'Ingest requests refused, by kind (of the route), reason and HTTP status; none of their events was accepted.',
    labels: ['kind', 'reason', 'status_code'],
  },
  refusedRecords: {
    name: 'devtrail_receiver_refused_records_total',
    type: 'counter',
    help: 'Records refused one by one inside an accepted OTLP or /ingest/batch request (its partial success), by the kind they would have been.',
    labels: ['kind', 'reason'],
  },
  rateLimitedEvents: {
    name: 'devtrail_receiver_rate_limited_events_total',
    type: 'counter',
    help: "Events refused with 429 by their project's quota or spike guard (docs/data.md), by kind and reason (quota_per_minute, quota_per_day, spike_guard).",
    labels: ['kind', 'reason'],
  },
  rateLimitedRequests: {
    name: 'devtrail_receiver_rate_limited_requests_total',
    type: 'counter',
    help: "Requests refused before their body was read because their project's quota for the kind was spent already (their events unknown), by kind and reason.",
    labels: ['kind', 'reason'],
  },
  sampledOutEvents: {
    name: 'devtrail_receiver_sampled_out_events_total',
    type: 'counter',
    help: 'Events answered as accepted and not stored because their project samples the kind (docs/data.md), by kind.',
    labels: ['kind'],
  },
  keyCacheLookups: {
    name: 'devtrail_receiver_key_cache_lookups_total',
    type: 'counter',
    help: 'API key lookups: hit (cached), miss (asked PostgreSQL), stale (PostgreSQL unreachable, a recently known key served from the cache).',
    labels: ['result'],
  },
  promptReads: {
    name: 'devtrail_receiver_prompt_reads_total',
    type: 'counter',
    help: 'Prompt reads by ingest key (the SDK getPrompt): hit (cached), miss (asked PostgreSQL), stale (PostgreSQL unreachable, a recent read served from the cache).',
    labels: ['result'],
  },
  produceQueueEvents: {
    name: 'devtrail_receiver_produce_queue_events',
    type: 'gauge',
    help: 'Events waiting for their Kafka acknowledgement in this receiver.',
    labels: [],
  },
  produceQueueCapacity: {
    name: 'devtrail_receiver_produce_queue_capacity_events',
    type: 'gauge',
    help: 'The bound of the produce queue (INGEST_MAX_PENDING_EVENTS); a full queue answers 503.',
    labels: [],
  },
  // Kafka, as the receiver's exporter.
  kafkaProduceDuration: {
    name: 'devtrail_kafka_produce_duration_seconds',
    type: 'histogram',
    help: 'Duration of one acks=all produce call (concurrent requests coalesced), by outcome (ok, error).',
    labels: ['outcome'],
    buckets: LATENCY_BUCKETS,
  },
  kafkaProduceFailures: {
    name: 'devtrail_kafka_produce_failures_total',
    type: 'counter',
    help: 'Requests whose events could not be made durable, by reason: error (Kafka refused or failed), timeout (no acknowledgement by the deadline), queue_full, failing (refused at once while Kafka is failing).',
    labels: ['reason'],
  },
  kafkaProducedMessages: {
    name: 'devtrail_kafka_produced_messages_total',
    type: 'counter',
    help: 'Messages acknowledged by Kafka, by topic (one message per accepted request and kind).',
    labels: ['topic'],
  },
  // Consumers (the consumer kit's hooks).
  storedEvents: {
    name: 'devtrail_consumer_stored_events_total',
    type: 'counter',
    help: 'Events written to the column store, by consumer and kind (a redelivered event counts again; the store de-duplicates by event id).',
    labels: ['consumer', 'kind'],
  },
  discardedEvents: {
    name: 'devtrail_consumer_discarded_events_total',
    type: 'counter',
    help: 'Events not written on purpose because their project was deleted (docs/data.md), by consumer and kind.',
    labels: ['consumer', 'kind'],
  },
  deadLetteredEvents: {
    name: 'devtrail_consumer_dead_lettered_events_total',
    type: 'counter',
    help: 'Events sent to the dead-letter topic, by consumer, kind and reason (undecodable, rejected by the store, failed after retries).',
    labels: ['consumer', 'kind', 'reason'],
  },
  writeRetries: {
    name: 'devtrail_consumer_write_retries_total',
    type: 'counter',
    help: 'Retries of a failed write or dead-letter produce, by cause: retryable (an outage) or unknown (an error that is not classified; bounded by CONSUMER_UNKNOWN_ERROR_RETRIES).',
    labels: ['consumer', 'kind', 'cause'],
  },
  stalledSeconds: {
    name: 'devtrail_consumer_stalled_seconds',
    type: 'gauge',
    help: 'How long the batch being written has been failing (0 while writes succeed): the partition does not move meanwhile.',
    labels: ['consumer', 'kind'],
  },
  bufferedEvents: {
    name: 'devtrail_consumer_buffered_events',
    type: 'gauge',
    help: 'Events read and waiting for their batch to be written.',
    labels: ['consumer', 'kind'],
  },
  consumerLag: {
    name: 'devtrail_consumer_lag',
    type: 'gauge',
    help: "Messages in a partition not yet committed by the group (the log's end offset minus the committed offset), read when scraped.",
    labels: ['group', 'topic', 'partition'],
  },
  ingestToVisible: {
    name: 'devtrail_ingest_to_visible_seconds',
    type: 'histogram',
    help: "Seconds from a request's events being appended to Kafka (the receiver's produce) to the end of the insert that made them readable, one observation per message (request).",
    labels: ['kind'],
    buckets: VISIBLE_BUCKETS,
  },
  // ClickHouse inserts.
  clickhouseInsertRows: {
    name: 'devtrail_clickhouse_insert_rows_total',
    type: 'counter',
    help: 'Rows inserted into the column store, by table.',
    labels: ['table'],
  },
  clickhouseInsertBytes: {
    name: 'devtrail_clickhouse_insert_bytes_total',
    type: 'counter',
    help: "Bytes inserted, by table: the server's written_bytes (ClickHouse), or the JSONEachRow body (chdb).",
    labels: ['table'],
  },
  clickhouseInsertDuration: {
    name: 'devtrail_clickhouse_insert_duration_seconds',
    type: 'histogram',
    help: 'Duration of one INSERT, by table and outcome (ok, error).',
    labels: ['table', 'outcome'],
    buckets: INSERT_BUCKETS,
  },
  // Every HTTP service.
  httpRequestDuration: {
    name: 'devtrail_http_server_request_duration_seconds',
    type: 'histogram',
    help: 'Duration of HTTP requests, by method, route pattern (unmatched for none) and status code.',
    labels: ['method', 'route', 'status_code'],
    buckets: LATENCY_BUCKETS,
  },
} as const satisfies Record<string, MetricDef>;

export type MetricKey = keyof typeof METRICS;

/** Process and runtime metrics (prom-client's defaults: process_*, nodejs_*), exported by every service. */
export const PROCESS_METRIC_PREFIXES = ['process_', 'nodejs_'] as const;
