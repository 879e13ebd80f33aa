import { z } from 'zod';
import { fromChTime, perRowRetentionStep, RETENTION_COLUMN, toChTime, type TableDef } from '@devtrail/column-store';
import { isPlainObject } from './checks.ts';
import { COLUMN } from '@devtrail/column-store/store-domain';
import type { ApiDocs } from '@devtrail/http/api-docs';
import type { OtlpSignal } from '@devtrail/otlp';
import type { EventOf, Fields } from './fields.ts';

// What a telemetry kind declares (its folder's index.ts), and what is derived from it.
// Everything about a kind is in its folder; the generic code (the receiver's routes and
// accept step, the envelope, the sinks, the migration, the ingestion query, the OpenAPI
// assembly) loops over the kinds (registry.ts) and names none.

/** An event as the column store gets it: the envelope's ids and times around the event. */
export interface StoredEvent<E = unknown> {
  project_id: string;
  event_id: string;
  received_at: string;
  /** The project's retention for this kind when the receiver took the event (docs/data.md); absent in older messages. */
  retention_days?: number;
  data: E;
}

/** A native request body mapped from OTLP records, with a label for refusals and, for derived records, their own time. */
export interface OtlpUnit {
  body: unknown;
  label: string;
  timestamp?: string;
}

/** What a project chose about OTLP records (its data policy, docs/data.md). */
export interface OtlpOptions {
  /** Span and resource attributes (beyond those a kind always reads) to keep in an LLM call's metadata. */
  llmAttributes: readonly string[];
}

/** How a kind takes its events from an OTLP export request (docs/otlp.md). */
export interface OtlpPart<R = never> {
  signal: OtlpSignal;
  /** The signal's own records (their refusals count in the partial success), not records derived from them. */
  primary: boolean;
  /** The native bodies this kind takes from a decoded request, and why the records it could not map were left out. */
  map(request: R, options?: OtlpOptions): { units: OtlpUnit[]; rejected: string[] };
}

/** A kind's part of the OpenAPI document. */
export interface KindDocs {
  summary: string;
  description: string;
  /** A valid request; the 400 example is it without `required`. */
  sample: Record<string, unknown>;
  required: string;
  /** Registers the request body's component(s) and answers the body's schema. */
  requestBody(docs: ApiDocs): z.ZodTypeAny;
  /** The success answer's component (kinds with the same answer share its name); built when the document is. */
  success: { name: string; schema(): z.ZodTypeAny };
  /** The component name of the read API's record of this kind. */
  recordName: string;
}

export interface KindSpec<F extends Fields, B> {
  /** The kind in code, the envelope's `kind`, the `dt-kind` header, metric labels. */
  id: string;
  /** The plural used outside: topic `<prefix><name>`, consumer `<name>-sink`, CONSUMERS entry, table. */
  name: string;
  /** The ingest route (the wire contract). */
  path: string;
  /** The request body's schema: the single source of validation rules and messages. */
  request: z.ZodType<B, z.ZodTypeDef, unknown>;
  /** The event's fields, in order: the event schema, the columns, the row and the record derive from them. */
  fields: F;
  /** A valid body -> normalised events; `now` stands for "the current time" in defaults. */
  toEvents(body: B, now: string): Array<EventOf<F>>;
  /** The same as request.parse + toEvents for a well-formed body, without zod; undefined to ask zod. */
  fastEvents?(body: unknown, now: string): Array<EventOf<F>> | undefined;
  /**
   * For a body `fastEvents` took: true when its every field reaches its events as it was sent
   * (nothing left out, nothing to normalise), so the request may go to Kafka as sent (message
   * version 3, docs/topics.md); its consumers make the same events with `fastEvents`.
   */
  asSent?(body: unknown): boolean;
  /** A body of several events as bodies of one each, with where that event sits in them (to find and name a refused one). */
  split?(body: unknown): Array<{ body: unknown; path: Array<string | number> }>;
  /** The body's array of records, when one body carries many (logs): a batch request's section is that array; otherwise each item of the section is a body. */
  batchField?: string;
  /** The success answer. */
  respond(events: Array<EventOf<F>>): Record<string, unknown>;
  /** A field whose value, when every event of a batch shares it, keys the batch's Kafka message (order per value). */
  partitionKey?: keyof F & string;
  table: Omit<TableDef, 'name' | 'columns'> & {
    /** The table keeps the envelope's received_at. */
    receivedAt?: boolean;
    /** ... and the read API's record shows it. */
    readReceivedAt?: boolean;
  };
  otlp?: OtlpPart<never>;
  /**
   * The kind (its id) whose data this one is part of (scores of LLM calls): that kind's
   * retention is this one's unless a project sets this one's, and deleting that kind's data
   * deletes this one's too (docs/data.md).
   */
  partOf?: string;
  docs: KindDocs;
}

export type Row = Record<string, unknown>;

/** An event as the read API answers it: its id, and its JSON fields parsed (or their text, should that not parse). */
export type RecordOf<E> = { event_id: string } & { [K in keyof E]: E[K] extends string | number ? E[K] : unknown };

export interface Kind<F extends Fields = Fields, B = unknown> extends KindSpec<F, B> {
  /** The event's schema in the Kafka envelope. */
  event: z.ZodObject<{ [K in keyof F]: z.ZodType<EventOf<F>[K]> }>;
  /** event.parse without zod for a well-formed event (unknown keys dropped); undefined to ask zod. */
  fastEvent(data: unknown): EventOf<F> | undefined;
  tableDef: TableDef;
  /** The event's row; `retentionDays` is written when the event does not carry its own. */
  toRow(e: StoredEvent<EventOf<F>>, retentionDays: number): Row;
  /** The columns of `toCells`, in order. */
  cellColumns: readonly string[];
  /** The same row as its cells in `cellColumns` order, what the sinks write (ColumnStore.insertCells). */
  toCells(e: StoredEvent<EventOf<F>>, retentionDays: number): unknown[];
  /** The fields scrubbing at the door looks at, and how (docs/data.md). */
  scrubbed: ReadonlyArray<{ name: string; how: 'tree' | 'text'; keeps?: readonly string[] }>;
  /** The content fields (a project's content capture setting drops them) and the value each takes then. */
  content: ReadonlyArray<{ name: string; absent: unknown }>;
  /** Fields whose keys may hold a conversation (fields.ts `conversation`). */
  conversation: readonly string[];
  /** The read API's record of one event (its OpenAPI component). */
  record: z.AnyZodObject;
  /** The columns a read record selects, in order. */
  recordColumns: string[];
  /** A selected row as the read API answers it. */
  toRecord(row: Row): Row;
}

const ENVELOPE_COLUMNS = [
  { name: 'project_id', sql: 'LowCardinality(String)' },
  { name: 'event_id', sql: 'UUID' },
];
const RECEIVED_AT = { name: 'received_at', sql: COLUMN.time.sql };

/** A field's column; one added later reads, in rows written before it existed, as its `absent` value (fields.ts `added`). */
function columnSql(f: Fields[string]): string {
  if (f.absent === undefined) return f.sql;
  const v = f.toRow ? f.toRow(f.absent as never) : f.absent;
  const literal = typeof v === 'string' ? `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : String(v);
  return `${f.sql} DEFAULT ${literal}`;
}

export function defineKind<const F extends Fields, B>(spec: KindSpec<F, B>): Kind<F, B> {
  type E = EventOf<F>;
  const fields = Object.entries(spec.fields);
  const names = fields.map(([name]) => name);
  const event = z.object(Object.fromEntries(fields.map(([name, f]) => [name, f.event]))) as Kind<F, B>['event'];

  const checks = fields.map(([name, f]) => [name, f.is, f.absent] as const);
  const fastEvent = checks.every(([, is]) => is)
    ? (d: unknown): E | undefined => {
        if (!isPlainObject(d)) return undefined;
        for (const [name, is] of checks) if (!is!(d[name])) return undefined;
        // An event with exactly its fields, in order (what a receiver writes), is what the
        // schema gives already: kept as it is, not copied (docs/architecture.md, step 6). A field
        // present but undefined (never so from JSON) takes its default in the copy, as in zod.
        let i = 0;
        for (const key in d) if (key !== names[i++] || d[key] === undefined) return copyOf(d);
        return i === names.length ? (d as E) : copyOf(d);
      }
    : () => undefined;
  const copyOf = (src: Record<string, unknown>): E => {
    const out: Record<string, unknown> = {};
    for (const [name, , absent] of checks) {
      const v = src[name];
      out[name] = v === undefined ? absent : v;
    }
    return out as E;
  };

  const { receivedAt, readReceivedAt, steps, ...tableRest } = spec.table;
  const tableDef: TableDef = {
    name: spec.name,
    columns: [...ENVELOPE_COLUMNS, ...(receivedAt ? [RECEIVED_AT] : []), ...fields.map(([name, f]) => ({ name, sql: columnSql(f) }))],
    ...tableRest,
    // Every table made before retention was per row gets its TTL once (column-store table.ts).
    steps: [perRowRetentionStep(tableRest.ttlColumn), ...(steps ?? [])],
  };
  const writers = fields.map(([name, f]) => [name, f.toRow] as const);
  // A batch's events share their received_at: its conversion is kept.
  let lastReceived = '';
  let lastReceivedCh = '';
  const receivedCh = (at: string) => (at === lastReceived ? lastReceivedCh : (lastReceivedCh = toChTime((lastReceived = at))));
  const toRow = (e: StoredEvent<E>, retentionDays: number): Row => {
    const row: Row = { project_id: e.project_id, event_id: e.event_id, [RETENTION_COLUMN]: e.retention_days ?? retentionDays };
    if (receivedAt) row.received_at = receivedCh(e.received_at);
    const d = e.data as Record<string, unknown>;
    for (const [name, write] of writers) row[name] = write ? write(d[name] as never) : d[name];
    return row;
  };
  // The same row as its cells, in cellColumns' order (a JSONCompactEachRow line): no keys to build or write.
  const cellColumns = ['project_id', 'event_id', RETENTION_COLUMN, ...(receivedAt ? ['received_at'] : []), ...names];
  const toCells = (e: StoredEvent<E>, retentionDays: number): unknown[] => {
    const cells = new Array<unknown>(cellColumns.length);
    cells[0] = e.project_id;
    cells[1] = e.event_id;
    cells[2] = e.retention_days ?? retentionDays;
    let i = 3;
    if (receivedAt) cells[i++] = receivedCh(e.received_at);
    const d = e.data as Record<string, unknown>;
    for (let w = 0; w < writers.length; w++) {
      const [name, write] = writers[w];
      cells[i++] = write ? write(d[name] as never) : d[name];
    }
    return cells;
  };

  const record = event.extend({ event_id: z.string().uuid(), ...(readReceivedAt ? { received_at: z.string().datetime() } : {}) });
  const recordColumns = ['event_id', ...(readReceivedAt ? ['received_at'] : []), ...names];
  const readers = [
    ...(readReceivedAt ? [['received_at', (v: unknown) => fromChTime(v as string)] as const] : []),
    ...fields.map(([name, f]) => [name, f.fromRow] as const),
  ];
  const toRecord = (row: Row): Row => {
    const out: Row = { ...row };
    for (const [name, read] of readers) if (read) out[name] = read(row[name]);
    return out;
  };
  const scrubbed = fields.filter(([, f]) => f.scrub).map(([name, f]) => ({ name, how: f.scrub!, ...(f.scrubKeeps ? { keeps: f.scrubKeeps } : {}) }));
  const content = fields.filter(([, f]) => f.content).map(([name, f]) => ({ name, absent: f.absent }));
  const conversation = fields.filter(([, f]) => f.conversation).map(([name]) => name);
  return { ...spec, event, fastEvent, tableDef, toRow, cellColumns, toCells, scrubbed, content, conversation, record, recordColumns, toRecord };
}
