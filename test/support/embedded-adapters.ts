import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DELETIONS_TOPIC, topicNames } from '@devtrail/contract';
import { createMemoryLog } from '@devtrail/message-log';
import { randomBytes } from 'node:crypto';
import { createClickHouseStore, ensureClickHouseDatabase, migrateColumnStore, type ColumnStore } from '@devtrail/column-store';
import { KIND_TABLES } from '@devtrail/kinds';
import { createChdbStore } from '@devtrail/column-store/chdb';
import { migratedPglite } from './pglite-template.ts';
import type { Adapters } from '@devtrail/runtime';
import { UNHURRIED_READS } from './unhurried-reads.ts';

/**
 * The column store of these adapters: chdb in the temp dir, or, when DEVTRAIL_TEST_CLICKHOUSE_URL
 * names a ClickHouse server (vitest.config.ts's "floor" project sets it to the floor stand-in), a
 * new database there, dropped at close: the same suites then read through that server's engine.
 */
async function columnStoreFor(dir: string): Promise<{ store: ColumnStore; drop: () => Promise<void> }> {
  const url = process.env.DEVTRAIL_TEST_CLICKHOUSE_URL;
  if (!url) return { store: createChdbStore(join(dir, 'ch'), 'devtrail', UNHURRIED_READS), drop: async () => {} };
  const opts = { url, database: `dt_emb_${randomBytes(4).toString('hex')}` };
  await ensureClickHouseDatabase(opts);
  return {
    store: createClickHouseStore(opts),
    drop: async () => {
      const admin = createClickHouseStore({ url, database: 'default' });
      await admin.command(`DROP DATABASE IF EXISTS ${opts.database}`);
      await admin.close();
    },
  };
}

/** The embedded-mode adapters (in-process log, chdb, PGlite) in a temp dir, migrated. */
export async function embeddedAdapters(opts: { logCapacity?: number } = {}): Promise<Adapters & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'dt-emb-'));
  const topics = topicNames('devtrail.');
  const messageLog = createMemoryLog({ capacity: opts.logCapacity });
  const { store: columnStore, drop } = await columnStoreFor(dir);
  const relational = await migratedPglite();
  await migrateColumnStore(columnStore, KIND_TABLES, { retentionDays: 30 });
  await messageLog.ensureTopics(topics.all(), 3);
  await messageLog.ensureTopics([topics.deletions()], DELETIONS_TOPIC.partitions);
  return {
    dir,
    messageLog,
    columnStore,
    relational,
    topics,
    async close() {
      await messageLog.close();
      await columnStore.close();
      await drop();
      await relational.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
