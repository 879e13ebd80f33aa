import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChdbStore } from '@devtrail/column-store/chdb';
import { migrateColumnStore, type ColumnStore } from '@devtrail/column-store';
import { KINDS, LOG_SEARCH, logWhere, parseSearch } from '@devtrail/kinds';
import { UNHURRIED_READS } from '../../../test/support/unhurried-reads.ts';

// The logs table's search indexes (log/index.ts): the migration adds them to a table made
// before them, and the search's SQL (search/sql.ts) is written so that they drop granules:
// a rare word, a metadata value and a quoted phrase read a few granules of a hundred.

const PROJECT = '00000000-0000-4000-8000-0000000000aa';
const ROWS = 200_000;

describe('logs search indexes (chdb)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dt-search-idx-'));
  let store: ColumnStore;
  let added: string[];

  beforeAll(async () => {
    store = createChdbStore(dir, 'search_idx', UNHURRIED_READS);
    const before = { ...KINDS.log.tableDef, indexes: KINDS.log.tableDef.indexes!.filter((i) => !i.startsWith('idx_text_')) };
    await migrateColumnStore(store, [before], { retentionDays: 30 });
    added = await migrateColumnStore(store, [KINDS.log.tableDef], { retentionDays: 30 });
    // Rows written after the migration carry the indexes (older parts get them as they merge).
    await store.command(
      `INSERT INTO logs (project_id, event_id, received_at, timestamp, service, environment, release, level, message, metadata, trace_id, span_id, request_id, context)
       SELECT '${PROJECT}', generateUUIDv4(number), now64(3), now64(3) - toIntervalMillisecond(number), 'api', 'production', 'v1', 'info',
              if(number = 123456, 'deadlock detected on orders', concat('GET /items/', toString(number % 1000), ' 200')),
              concat('{"user_id":"u_', toString(number), '","region":"eu-west-1"}'), '', '', '', ''
         FROM numbers(${ROWS})`,
    );
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** [granules left to read, granules in the range] for a search. */
  async function granules(q: string): Promise<[number, number]> {
    const { where, params } = logWhere({ retentionDays: 30, projectId: PROJECT, range: { fromMs: 0, toMs: Date.now() + 60_000 }, search: parseSearch(q, LOG_SEARCH) });
    const plan = (await store.query<{ explain: string }>(`EXPLAIN indexes = 1 SELECT event_id FROM logs WHERE ${where.join(' AND ')}`, params))
      .map((r) => r.explain)
      .join('\n');
    const all = [...plan.matchAll(/Granules: (\d+)\/(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])] as [number, number]);
    return [all[all.length - 1][0], all[0][1]];
  }

  it('adds the search indexes to a table made before them', () => {
    expect(added).toEqual(['added index logs.idx_text_ngram', 'added index logs.idx_text_token']);
  });

  it('reads a few granules of many for a rare word, a metadata value and a phrase', async () => {
    for (const q of ['deadlock', 'metadata.user_id:u_123456', 'u_123456', '"deadlock detected"']) {
      const [left, total] = await granules(q);
      expect(total, q).toBeGreaterThan(20);
      expect(left, q).toBeLessThanOrEqual(2);
    }
    // A word on every log is read everywhere: nothing to skip.
    const [left, total] = await granules('items');
    expect(left).toBe(total);
    // And the answers are right.
    const { where, params } = logWhere({ retentionDays: 30, projectId: PROJECT, search: parseSearch('metadata.user_id:u_123456', LOG_SEARCH) });
    expect(await store.query(`SELECT message FROM logs WHERE ${where.join(' AND ')}`, params)).toEqual([{ message: 'deadlock detected on orders' }]);
  });
});
