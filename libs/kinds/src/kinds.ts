import type { z } from 'zod';
import { errorReportSchema, llmUsageSchema, logBatchSchema, spanSchema } from './schemas.ts';
import { errorEventSchema, llmEventSchema, logEventSchema, spanEventSchema } from './events.ts';
import { errorToEvent, llmToEvent, logsToEvents, spanToEvent } from './to-events.ts';
import { fastLogsToEvents } from './fast-paths.ts';

// The telemetry kinds, every fact about one in its row; everything else reads this table.
//   path     the ingest route (spec section 2), also the SDK's (libs/sdk keeps a copy, held
//            equal to this by a test, since the SDK is published without dependencies)
//   name     the plural used outside: topic `<prefix><name>` (docs/topics.md), the
//            consumer group `<prefix><name>-sink` and its name in CONSUMERS
//   table    the column-store table
//   request  the request body's schema; toEvents turns a valid body into normalised
//            events; fastEvents (optional) does both without zod (fast-paths.ts)
//   event    the schema of one event as the Kafka envelope carries it (events.ts)
//   respond  the spec's success body (section 2.8)

interface KindRow<B, E> {
  path: string;
  name: string;
  table: string;
  request: z.ZodType<B, z.ZodTypeDef, unknown>;
  event: z.ZodType<E>;
  toEvents(body: B, now: string): E[];
  fastEvents?(body: unknown, now: string): E[] | undefined;
  respond(events: E[]): Record<string, unknown>;
}
const row = <B, E>(r: KindRow<B, E>) => r;

export const KINDS = {
  log: row({
    path: '/ingest/logs',
    name: 'logs',
    table: 'logs',
    request: logBatchSchema,
    event: logEventSchema,
    toEvents: logsToEvents,
    fastEvents: fastLogsToEvents,
    respond: (e) => ({ ok: true, count: e.length }),
  }),
  error: row({
    path: '/ingest/errors',
    name: 'errors',
    table: 'errors',
    request: errorReportSchema,
    event: errorEventSchema,
    toEvents: (b, now) => [errorToEvent(b, now)],
    respond: ([e]) => ({ ok: true, fingerprint: e.fingerprint }),
  }),
  span: row({
    path: '/ingest/traces',
    name: 'spans',
    table: 'spans',
    request: spanSchema,
    event: spanEventSchema,
    toEvents: (b) => [spanToEvent(b)],
    respond: () => ({ ok: true }),
  }),
  llm: row({
    path: '/ingest/llm',
    name: 'llm',
    table: 'llm_usage',
    request: llmUsageSchema,
    event: llmEventSchema,
    toEvents: (b, now) => [llmToEvent(b, now)],
    respond: () => ({ ok: true }),
  }),
};

export type EventKind = keyof typeof KINDS;
export const EVENT_KINDS = Object.keys(KINDS) as EventKind[];
/** The normalised event of each kind, as the Kafka envelope carries it. */
export type EventDataByKind = { [K in EventKind]: z.infer<(typeof KINDS)[K]['event']> };
/** One kind's row, for code that handles every kind alike. */
export type AnyKindRow = KindRow<unknown, EventDataByKind[EventKind]>;
export const kindRow = (kind: EventKind) => KINDS[kind] as unknown as AnyKindRow;

/** The kind a plural name (topic suffix, sink name) stands for, or undefined. */
export function kindByName(name: string): EventKind | undefined {
  return EVENT_KINDS.find((k) => KINDS[k].name === name);
}
