import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Config, Logger } from '@devtrail/config';
import { DELETIONS_TOPIC, topicNames, type Topics } from '@devtrail/contract';
import { KIND_TABLES } from '@devtrail/kinds';
import { createKafkaLog, createMemoryLog, type MessageLog } from '@devtrail/message-log';
import {
  clusterInsertSettings,
  createClickHouseStore,
  ensureClickHouseDatabase,
  migrateColumnStore,
  requireSupportedServer,
  type ColumnStore,
} from '@devtrail/column-store';
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
    columnStore = createChdbStore(join(config.dataDir, 'clickhouse'), config.clickhouse.database, config.reads);
    relational = await createPgliteStore(join(config.dataDir, 'postgres'));
  } else {
    messageLog = createKafkaLog({ brokers: config.kafka.brokers, clientId: config.kafka.clientId, ssl: config.kafka.ssl, sasl: config.kafka.sasl, log });
    const { cluster } = config.clickhouse;
    const ch = {
      url: config.clickhouse.url,
      database: config.clickhouse.database,
      username: config.clickhouse.user,
      password: config.clickhouse.password,
      log,
      reads: config.reads,
      ...(cluster ? { insertSettings: clusterInsertSettings(config.clickhouse.insertQuorum) } : {}),
    };
    // On a cluster the database is the operator's (docs/deployment.md#a-clickhouse-cluster), as it is when migrations are off.
    if (opts.migrate && config.clickhouse.migrate && !cluster) await ensureClickHouseDatabase(ch);
    columnStore = createClickHouseStore(ch);
    // Every service migrates at start: it refuses a server older than devtrail supports first.
    if (opts.migrate) logger.info({ clickhouse: await requireSupportedServer(columnStore, new URL(ch.url).origin) }, 'ClickHouse server version');
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
    if (config.mode === 'embedded' || config.clickhouse.migrate) {
      const { cluster, database, retentionDays } = config.clickhouse;
      const changes = await migrateColumnStore(columnStore, KIND_TABLES, {
        retentionDays,
        ...(cluster && config.mode !== 'embedded' ? { cluster: { cluster, database } } : {}),
      });
      if (changes.length > 0) logger.info({ changes }, 'ClickHouse schema migrated');
    }
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
