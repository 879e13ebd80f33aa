import { z } from 'zod';
import { fromChTime, parseJson, toChTime } from '@devtrail/column-store';
import { COLUMN } from '@devtrail/column-store/store-domain';
import { ISO_DATETIME, plainRecord } from './checks.ts';

// The types an event field can have. One type says everything about a field after the
// receiver: its schema in the Kafka envelope, a check of the same without zod, its column
// in the column store, how it is written there and how the read API gives it back. A
// kind lists its event's fields with these (kind.ts), and the event schema, the consumer's
// fast decode, the table's columns, the row and the read record are derived from that list.

export interface FieldType<T = unknown> {
  /** The ClickHouse column type. */
  sql: string;
  /** The field in the Kafka envelope's event. */
  event: z.ZodType<T>;
  /** The same check as `event`, without zod; absent where only zod can say (a field then sends its kind's decode to zod). */
  is?(v: unknown): boolean;
  /** The value as written to the column (default: as it is). */
  toRow?(v: T): unknown;
  /** The column's value as the read API answers it (default: as the store gives it). */
  fromRow?(v: unknown): unknown;
  /**
   * What scrubbing at the door looks at (docs/data.md): `tree`, a JSON value's keys and
   * values at any depth; `text`, a string's value patterns. Unset: never scrubbed.
   */
  scrub?: 'tree' | 'text';
  /** Top-level keys of a `tree` field that hold identifiers, left as scrubbing leaves ids (docs/data.md). */
  scrubKeeps?: readonly string[];
  /** Set by `added`: the value of an event written before the field existed. */
  absent?: T;
  /**
   * Content people typed or a model wrote (an LLM call's messages): a project that turns
   * content capture off gets the field's `absent` value instead (docs/data.md).
   */
  content?: true;
  /**
   * A `tree` field whose keys may hold a conversation (a span's or an LLM call's attributes,
   * llm/conversation-keys.ts): content capture off drops those keys; tool arguments and results
   * given as JSON text in it are parsed, so scrubbing reads them by key.
   */
  conversation?: true;
}

const isString = (v: unknown) => typeof v === 'string';

/** Free text. */
export const text: FieldType<string> = { sql: 'String', event: z.string(), is: isString };
/** Free text a person wrote or a program formatted (a message, a stack trace, a user id): value rules scrub it. */
export const freeText: FieldType<string> = { ...text, scrub: 'text' };
/** Text with few distinct values per project (service, environment, release). */
export const label: FieldType<string> = { sql: 'LowCardinality(String)', event: z.string(), is: isString };

/** One of a fixed list of words. */
export function oneOf<const V extends readonly [string, ...string[]]>(values: V): FieldType<V[number]> {
  const known = new Set<unknown>(values);
  return { sql: 'LowCardinality(String)', event: z.enum(values), is: (v) => known.has(v) };
}

/** An instant: ISO 8601 in the envelope, DateTime64(3, UTC) in the store. */
export const time: FieldType<string> = {
  sql: COLUMN.time.sql,
  event: z.string().datetime({ offset: true }),
  is: (v) => typeof v === 'string' && ISO_DATETIME.test(v),
  toRow: toChTime,
  fromRow: (v) => fromChTime(v as string),
};

/** A JSON object of the client's (metadata, context), stored as its text. */
export const json: FieldType<Record<string, unknown>> = {
  sql: 'String',
  event: z.record(z.unknown()),
  is: plainRecord,
  toRow: (v) => JSON.stringify(v),
  fromRow: (v) => parseJson(v as string),
  scrub: 'tree',
};

/** A JSON array of objects of one schema, stored as its text (no zod-free check: its items' unknown keys are zod's to drop). */
export function jsonList<T>(item: z.ZodType<T>): FieldType<T[]> {
  return { sql: 'String', event: z.array(item), toRow: (v) => JSON.stringify(v), fromRow: (v) => parseJson(v as string), scrub: 'tree' };
}

/** A count or duration: an integer >= 0. */
export const count: FieldType<number> = {
  sql: COLUMN.count.sql,
  event: z.number().int().min(0),
  is: (v) => Number.isInteger(v) && (v as number) >= 0,
  fromRow: Number,
};

/** An amount (cost). */
export const amount: FieldType<number> = { sql: COLUMN.amount.sql, event: z.number(), is: (v) => typeof v === 'number' && Number.isFinite(v), fromRow: Number };

/** A yes or no. */
export const flag: FieldType<boolean> = { sql: 'Bool', event: z.boolean(), is: (v) => typeof v === 'boolean', fromRow: (v) => v === true || v === 1 || v === 'true' };

/** A SHA-256 digest, 64 lowercase hex. */
export const sha256Hex: FieldType<string> = {
  sql: 'FixedString(64)',
  event: z.string().regex(/^[0-9a-f]{64}$/),
  is: (v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v),
};

/**
 * A field added after events were written: messages still in Kafka (and replayed ones) lack it
 * and read as `absent`, so the envelope stays compatible with what it held (docs/topics.md,
 * "Evolution").
 */
export function added<T>(type: FieldType<T>, absent: T): FieldType<T> {
  const is = type.is;
  return { ...type, event: type.event.default(absent as never) as unknown as z.ZodType<T>, ...(is ? { is: (v: unknown) => v === undefined || is(v) } : {}), absent };
}

/** Every kind's first three fields. */
export const COMMON_FIELDS = { service: label, environment: label, release: label };

export type Fields = Record<string, FieldType<any>>;
/** The event a field list describes. */
export type EventOf<F extends Fields> = { [K in keyof F]: F[K] extends FieldType<infer T> ? T : never };
