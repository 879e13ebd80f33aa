import { z } from 'zod';
import { COLUMN } from '@devtrail/column-store/store-domain';
import { plainRecord } from '../checks.ts';
import { amount, COMMON_FIELDS, count, flag, json, jsonList, label, oneOf, text, time, type EventOf, type FieldType } from '../fields.ts';

// One data point of a metric (docs/data.md#metrics), in order: kind.ts derives its schema,
// columns, row and record. Every point type shares one row shape: the fields a type does not
// use keep their empty value (a gauge has no buckets, a histogram no value).

export const metricTypes = ['gauge', 'sum', 'histogram', 'exponential_histogram', 'summary'] as const;
export type MetricType = (typeof metricTypes)[number];
/** How a sum or histogram accumulates: each point since the last (delta) or since its start time (cumulative). */
export const temporalities = ['unspecified', 'delta', 'cumulative'] as const;

/** A number that may be absent (a histogram's min and max). */
const maybeAmount: FieldType<number | null> = {
  sql: `Nullable(${COLUMN.amount.sql})`,
  event: z.number().nullable(),
  is: (v) => v === null || (typeof v === 'number' && Number.isFinite(v)),
  fromRow: (v) => (v === null ? null : Number(v)),
};

/** A signed integer (an exponential histogram's scale and bucket offsets). */
const integer: FieldType<number> = { sql: 'Int32', event: z.number().int(), is: Number.isInteger, fromRow: Number };

const isNumbers = (v: unknown) => Array.isArray(v) && v.every((n) => typeof n === 'number' && Number.isFinite(n));
/** Numbers in order (a histogram's bounds, a summary's quantiles). */
const numbers: FieldType<number[]> = {
  sql: `Array(${COLUMN.amount.sql})`,
  event: z.array(z.number()),
  is: isNumbers,
  fromRow: (v) => (v as unknown[]).map(Number),
};
/** Counts in order (a histogram's buckets). */
const counts: FieldType<number[]> = {
  sql: `Array(${COLUMN.count.sql})`,
  event: z.array(z.number().int().min(0)),
  is: (v) => Array.isArray(v) && v.every((n) => Number.isInteger(n) && n >= 0),
  fromRow: (v) => (v as unknown[]).map(Number),
};

export const exemplarSchema = z.object({
  time: z.string(),
  value: z.number(),
  trace_id: z.string(),
  span_id: z.string(),
  attributes: z.record(z.unknown()),
});
export type Exemplar = z.infer<typeof exemplarSchema>;

const EXEMPLAR_KEYS = ['time', 'value', 'trace_id', 'span_id', 'attributes'];
/** exemplarSchema's check without zod, for an exemplar with exactly its keys in order (what the receiver writes); else zod decides. */
const isExemplar = (e: unknown): boolean => {
  if (!plainRecord(e)) return false;
  const keys = Object.keys(e);
  if (keys.length !== EXEMPLAR_KEYS.length || keys.some((k, i) => k !== EXEMPLAR_KEYS[i])) return false;
  return (
    typeof e.time === 'string' &&
    typeof e.value === 'number' &&
    !Number.isNaN(e.value) &&
    typeof e.trace_id === 'string' &&
    typeof e.span_id === 'string' &&
    plainRecord(e.attributes)
  );
};

export const METRIC_FIELDS = {
  ...COMMON_FIELDS,
  /** The metric's name. */
  metric: label,
  type: oneOf(metricTypes),
  unit: label,
  description: text,
  temporality: oneOf(temporalities),
  monotonic: flag,
  /** The point's time. */
  time,
  /** When its cumulative count started (a counter reset starts a new one); the Unix epoch when unknown. */
  start_time: time,
  /** The point's attributes: with the metric and the resource, they name its series. */
  attributes: json,
  /** The resource's attributes beyond service, environment and release. */
  resource: json,
  scope: label,
  scope_version: label,
  /** A gauge's or a sum's value. */
  value: amount,
  /** Histograms and summaries: how many values, and their sum. */
  count,
  sum: amount,
  min: maybeAmount,
  max: maybeAmount,
  /** An explicit histogram's upper bounds; its bucket_counts has one more (the last bucket is unbounded). */
  bounds: numbers,
  bucket_counts: counts,
  /** An exponential histogram: bucket i of the positive range holds values in (base^(offset+i), base^(offset+i+1)], base = 2^(2^-scale). */
  scale: integer,
  zero_count: count,
  positive_offset: integer,
  positive_counts: counts,
  negative_offset: integer,
  negative_counts: counts,
  /** A summary's quantiles (0..1) and their values, in the same order. */
  quantiles: numbers,
  quantile_values: numbers,
  /** Example measurements with the trace and span they were made in. */
  exemplars: { ...jsonList(exemplarSchema), is: (v: unknown) => Array.isArray(v) && v.every(isExemplar) },
  /** OTLP's data point flags (1: no recorded value). */
  flags: count,
};

export type MetricEvent = EventOf<typeof METRIC_FIELDS>;
