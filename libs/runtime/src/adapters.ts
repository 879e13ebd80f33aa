import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Config, Logger } from '@devtrail/config';
import { DELETIONS_TOPIC, topicNames, type Topics } from '@devtrail/contract';
import { KIND_TABLES } from '@devtrail/kinds';
import { createKafkaLog, createMemoryLog, type MessageLog } from '@devtrail/message-log';
import { createClickHouseStore, ensureClickHouseDatabase, migrateColumnStore, type ColumnStore } from '@devtrail/column-store';
import { createPgStore, createPgliteStore, migrateRelational, type RelationalStore } from '@devtrail/relational-store';
import type { LogFn } from '@devtrail/failures';
import type { Metrics } from '@devtrail/metrics';
import { relationalObserver } from './observed-relational.ts';
import { observeColumnStore } from './observed-column-store.ts';

// The only place that decides which implementation stands behind each role.

export interface Adapters {
  messageLog: MessageLog;
  columnStore: ColumnStore;
  relational: RelationalStore;
  topics: Topics;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Which roles this process needs; a receiver does not need to migrate the column store, etc. */
  migrate?: boolean;
  /** The process's metrics registry: column-store inserts are measured into it. */
  metrics?: Metrics;
}

export async function openAdapters(config: Config, logger: Logger, opts: OpenOptions = {}): Promise<Adapters> {
  const topics = topicNames(config.kafka.topicPrefix);
  let messageLog: MessageLog;
  let columnStore: ColumnStore;
  let relational: RelationalStore;
  // The adapters' lines (their clients' own, and one per change of a backend's reachability) through the service's logger.
  const log: LogFn = (level, msg, extra) => logger[level](extra, msg);
  if (config.mode === 'embedded') {
    mkdirSync(config.dataDir, { recursive: true });
    messageLog = createMemoryLog();
    // Loaded lazily: the native engine is only needed in the embedded mode.
    const { createChdbStore } = await import('@devtrail/column-store/chdb');
    columnStore = createChdbStore(join(config.dataDir, 'clickhouse'), config.clickhouse.database);
    relational = await createPgliteStore(join(config.dataDir, 'postgres'));
  } else {
    messageLog = createKafkaLog({ brokers: config.kafka.brokers, clientId: config.kafka.clientId, ssl: config.kafka.ssl, sasl: config.kafka.sasl, log });
    const ch = { url: config.clickhouse.url, database: config.clickhouse.database, username: config.clickhouse.user, password: config.clickhouse.password, log };
    if (opts.migrate) await ensureClickHouseDatabase(ch);
    columnStore = createClickHouseStore(ch);
    const pg = relationalObserver(log);
    relational = pg.observe(
      createPgStore({
        url: config.postgres.url,
        connectTimeoutMs: config.postgres.connectTimeoutMs,
        queryTimeoutMs: config.postgres.queryTimeoutMs,
        onError: pg.onError,
      }),
    );
  }
  if (opts.metrics) columnStore = observeColumnStore(columnStore, opts.metrics);
  if (opts.migrate) {
    await migrateRelational(relational);
    await migrateColumnStore(columnStore, KIND_TABLES, { retentionDays: config.clickhouse.retentionDays });
    await messageLog.ensureTopics(topics.all(), config.kafka.partitions, config.kafka.replicationFactor);
    await messageLog.ensureTopics([topics.deletions()], DELETIONS_TOPIC.partitions, config.kafka.replicationFactor, DELETIONS_TOPIC.config);
  }
  return {
    messageLog,
    columnStore,
    relational,
    topics,
    async close() {
      await messageLog.close().catch((err) => logger.warn({ err }, 'closing message log'));
      await columnStore.close().catch((err) => logger.warn({ err }, 'closing column store'));
      await relational.close().catch((err) => logger.warn({ err }, 'closing relational store'));
    },
  };
}
