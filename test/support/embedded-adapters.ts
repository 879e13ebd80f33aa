import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DELETIONS_TOPIC, topicNames } from '@devtrail/contract';
import { createMemoryLog } from '@devtrail/message-log';
import { migrateColumnStore } from '@devtrail/column-store';
import { KIND_TABLES } from '@devtrail/kinds';
import { createChdbStore } from '@devtrail/column-store/chdb';
import { createPgliteStore, migrateRelational } from '@devtrail/relational-store';
import type { Adapters } from '@devtrail/runtime';

/** The embedded-mode adapters (in-process log, chdb, PGlite) in a temp dir, migrated. */
export async function embeddedAdapters(opts: { logCapacity?: number } = {}): Promise<Adapters & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'dt-emb-'));
  const topics = topicNames('devtrail.');
  const messageLog = createMemoryLog({ capacity: opts.logCapacity });
  const columnStore = createChdbStore(join(dir, 'ch'), 'devtrail');
  const relational = await createPgliteStore();
  await migrateRelational(relational);
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
      await relational.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
