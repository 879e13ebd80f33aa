import { toRow, type ColumnStore } from '@devtrail/column-store';
import { createTopicConsumer, envelopeDecoder, type TopicConsumer } from '@devtrail/consumer-kit';
import { EVENT_KINDS, KINDS, kindByName, type Envelope, type EventKind, type Topics } from '@devtrail/contract';
import type { MessageLog } from '@devtrail/message-log';
import type { Config, Logger } from '@devtrail/config';
import type { Adapters } from '@devtrail/runtime';

// One column-store sink per telemetry kind, each its own consumer group. The error
// sink is also the error-grouping stage: its rows feed error_groups (a materialised
// view keyed by the fingerprint the shared function computed in the receiver).

/** Every sink's name (CONSUMERS=...): the kinds' plural names (contract kinds.ts). */
export const SINK_NAMES = EVENT_KINDS.map((k) => KINDS[k].name);

export interface SinkOptions {
  messageLog: MessageLog;
  columnStore: ColumnStore;
  topics: Topics;
  groupPrefix: string;
  batchRows: number;
  batchMs: number;
  logger: Logger;
}

export function createSink(kind: EventKind, o: SinkOptions): TopicConsumer {
  const { name, table } = KINDS[kind];
  const decode = envelopeDecoder(kind);
  return createTopicConsumer<Record<string, unknown>>({
    name: `${name}-sink`,
    messageLog: o.messageLog,
    groupId: `${o.groupPrefix}${name}-sink`,
    topic: o.topics.of(kind),
    deadLetterTopic: o.topics.deadLetterOf(kind),
    // Mapped to its row at once: a batch waiting for its write holds flat rows, not
    // envelope object graphs (less for the garbage collector to trace).
    decode: (m) => toRow(decode(m) as Envelope),
    write: (rows) => o.columnStore.insert(table, rows),
    batchRows: o.batchRows,
    batchMs: o.batchMs,
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
    logger,
  };
}
