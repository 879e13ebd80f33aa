import type { ColumnStore } from '@devtrail/column-store';
import { createEventConsumer, type TopicConsumer } from '@devtrail/consumer-kit';
import { EVENT_KINDS, KINDS, kindByName, kindOf, type EventKind } from '@devtrail/kinds';
import type { Envelope, Topics } from '@devtrail/contract';
import type { MessageLog } from '@devtrail/message-log';
import type { Config, Logger } from '@devtrail/config';
import type { Metrics } from '@devtrail/metrics';
import type { Adapters } from '@devtrail/runtime';
import { sinkHooks, watchSinks } from './sink-metrics.ts';

// THE PATH OF AN EVENT AFTER KAFKA (docs/architecture.md): one column-store sink per
// kind, each its own consumer group (`<prefix><name>-sink`).
//   decode  the kit reads the kind's messages: a request's batch of events (or one event,
//           from older receivers); an event that cannot be read is dead-lettered alone
//   row     each event becomes its table's row as it is decoded (its kind's toCells: the
//           row's cells in column order), so a batch waiting for its write holds flat rows,
//           not envelope object graphs
//   insert  up to CONSUMER_BATCH_ROWS rows or CONSUMER_BATCH_MS, one INSERT; an outage is
//           waited out with backoff, a row the store refuses for good is isolated and
//           dead-lettered; a deleted project's rows are discarded (counted), at every
//           attempt, so its events still in Kafka never come back (docs/data.md#deletion)
//   commit  offsets, only after the insert (at-least-once; tables de-duplicate by event id)
// The error sink is also the error-grouping stage: its rows feed error_groups (a
// materialised view keyed by the fingerprint the receiver computed).

/** Every sink's name (CONSUMERS=...): the kinds' plural names (contract kinds.ts). */
export const SINK_NAMES = EVENT_KINDS.map((k) => KINDS[k].name);

export interface SinkOptions {
  messageLog: MessageLog;
  columnStore: ColumnStore;
  topics: Topics;
  groupPrefix: string;
  batchRows: number;
  batchMs: number;
  retryMaxMs: number;
  unknownErrorRetries: number;
  logger: Logger;
  /** The process's registry: outcomes, retries, visibility, lag (sink-metrics.ts). */
  metrics?: Metrics;
  /** RETENTION_DAYS: the retention of events whose message does not carry one (written by older receivers). */
  retentionDays: number;
  /** What was deleted (deleted-projects.ts): projects, and deletions of some of a project's events; none of it is written. */
  deleted: { has(projectId: string): boolean; size: number; covers(event: Envelope): boolean };
}

export function createSink(kind: EventKind, o: SinkOptions): TopicConsumer {
  const k = kindOf(kind);
  // An event a deletion covers maps to null (left out, counted as discarded); a deleted
  // project's rows are left out again at every write attempt (it may be deleted meanwhile).
  // Rows are their cells (kind.ts toCells; the project id first): no object per row to build and write.
  const insert = async (rows: Array<unknown[] | null>): Promise<number> => {
    const keep = rows.filter((r): r is unknown[] => r !== null && (o.deleted.size === 0 || !o.deleted.has(r[0] as string)));
    await o.columnStore.insertCells(k.name, k.cellColumns, keep);
    return rows.length - keep.length;
  };
  return createEventConsumer({
    kind,
    topics: o.topics,
    map: (e) => (o.deleted.covers(e) ? null : k.toCells(e, o.retentionDays)),
    write: insert,
    // devtrail's own topics (docs/topics.md): its dead letters on <topic>.dlq; deletions from PostgreSQL (deleted-projects.ts).
    deadLetterTopic: o.topics.deadLetterOf(kind),
    redriveTopic: null,
    createTopics: false,
    deletions: false,
    name: `${k.name}-sink`,
    hooks: o.metrics && sinkHooks(o.metrics, `${k.name}-sink`, kind),
    groupId: `${o.groupPrefix}${k.name}-sink`,
    messageLog: o.messageLog,
    batchRows: o.batchRows,
    batchMs: o.batchMs,
    retryMaxMs: o.retryMaxMs,
    unknownErrorRetries: o.unknownErrorRetries,
    logger: o.logger,
  });
}

/** The sinks named in config (e.g. "logs,errors,spans,llm"); unknown names are a config error. */
export function createSinks(names: string[], o: SinkOptions): TopicConsumer[] {
  const sinks = names.map((n) => {
    const kind = kindByName(n);
    if (!kind) throw new Error(`unknown consumer "${n}" (known: ${SINK_NAMES.join(', ')})`);
    return { kind, consumer: createSink(kind, o) };
  });
  if (o.metrics) watchSinks(o.metrics, o.messageLog, sinks);
  return sinks.map((s) => s.consumer);
}

/** Sink options from the parsed config and the process's adapters. */
export function sinkOptions(config: Config, adapters: Adapters, logger: Logger, deleted: SinkOptions['deleted'], metrics?: Metrics): SinkOptions {
  return {
    messageLog: adapters.messageLog,
    columnStore: adapters.columnStore,
    topics: adapters.topics,
    groupPrefix: config.consumers.groupPrefix,
    batchRows: config.consumers.batchRows,
    batchMs: config.consumers.batchMs,
    retryMaxMs: config.consumers.retryMaxMs,
    unknownErrorRetries: config.consumers.unknownErrorRetries,
    logger,
    metrics,
    retentionDays: config.ingest.defaultRetentionDays,
    deleted,
  };
}
