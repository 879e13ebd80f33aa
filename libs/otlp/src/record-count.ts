// How many records one OTLP request may carry. A protobuf log record can be two bytes, so a
// 5 MB body could hold millions, each a ~300-byte event once mapped; the native endpoint
// bounds a request at 1,000 logs. 10,000 covers what SDKs and the Collector send by default
// (batches of 512 and 8,192) and keeps a request's events one Kafka message per kind.
export const MAX_OTLP_RECORDS = 10_000;
