import { toRow, type ColumnStore } from '@devtrail/column-store';
import { createEventConsumer, type TopicConsumer } from '@devtrail/consumer-kit';
import { EVENT_KINDS, KINDS, kindByName, type EventKind, type Topics } from '@devtrail/contract';
import type { MessageLog } from '@devtrail/message-log';
import type { Config, Logger } from '@devtrail/config';
import type { Adapters } from '@devtrail/runtime';

// THE PATH OF AN EVENT AFTER KAFKA (docs/architecture.md): one column-store sink per
// kind, each its own consumer group (`<prefix><name>-sink`).
//   decode  the kit reads the kind's messages: a request's batch of events (or one event,
//           from older receivers); an event that cannot be read is dead-lettered alone
//   row     each event becomes its table's row as it is decoded (column-store toRow), so a
//           batch waiting for its write holds flat rows, not envelope object graphs
//   insert  up to CONSUMER_BATCH_ROWS rows or CONSUMER_BATCH_MS, one INSERT; an outage is
//           waited out with backoff, a row the store refuses for good is isolated and
//           dead-lettered
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
}

export function createSink(kind: EventKind, o: SinkOptions): TopicConsumer {
  const { name, table } = KINDS[kind];
  const insert = (rows: Array<Record<string, unknown>>) => o.columnStore.insert(table, rows);
  return createEventConsumer({
    kind,
    topics: o.topics,
    map: toRow,
    write: insert,
    name: `${name}-sink`,
    groupId: `${o.groupPrefix}${name}-sink`,
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
  return names.map((n) => {
    const kind = kindByName(n);
    if (!kind) throw new Error(`unknown consumer "${n}" (known: ${SINK_NAMES.join(', ')})`);
    return createSink(kind, o);
  });
}

/** Sink options from the parsed config and the process's adapters. */
export function sinkOptions(config: Config, adapters: Adapters, logger: Logger): SinkOptions {
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
  };
}
