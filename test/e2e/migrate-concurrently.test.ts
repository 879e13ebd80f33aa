import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPgStore, migrateRelational, MIGRATIONS } from '@devtrail/relational-store';
import { createClickHouseStore, ensureClickHouseDatabase, migrateColumnStore } from '@devtrail/column-store';
import { KIND_TABLES } from '@devtrail/kinds';
import { createTestDatabase } from '../support/pg-database.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../support/stack.ts';

// The stores' migrations, run by many processes at the same instant on empty databases (what
// replicas started together do, see replicas-start-together.test.ts, with the timing left to
// chance there): every one of them succeeds, and the schema is complete once.
const up = await stackUp();
const PROCESSES = 6;
const ROUNDS = 4;

describe.skipIf(!up)(`migrations run concurrently${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  it(`PostgreSQL: ${PROCESSES} at once on an empty database, ${ROUNDS} times`, { timeout: 120_000 }, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const db = await createTestDatabase();
      const stores = Array.from({ length: PROCESSES }, () => createPgStore({ url: db.url, connectTimeoutMs: 5000, queryTimeoutMs: 20_000 }));
      try {
        // Connected first, so the migrations' first statements leave together.
        await Promise.all(stores.map((s) => s.ping()));
        const results = await Promise.allSettled(stores.map((s) => migrateRelational(s)));
        expect(
          results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
          `round ${round}`,
        ).toEqual([]);
        const applied = results.flatMap((r) => (r as PromiseFulfilledResult<number[]>).value);
        expect(applied.sort((a, b) => a - b)).toEqual(MIGRATIONS.map((m) => m.version));
      } finally {
        await Promise.all(stores.map((s) => s.close()));
        await db.drop();
      }
    }
  });

  it(`ClickHouse: ${PROCESSES} at once on a database that does not exist, ${ROUNDS} times`, { timeout: 120_000 }, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const database = `migrate_${randomBytes(4).toString('hex')}`;
      const opts = { url: STACK.clickhouseUrl, database };
      const stores = Array.from({ length: PROCESSES }, () => createClickHouseStore(opts));
      try {
        const results = await Promise.allSettled(
          stores.map(async (s) => {
            await ensureClickHouseDatabase(opts);
            return migrateColumnStore(s, KIND_TABLES, { retentionDays: 1 });
          }),
        );
        expect(
          results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
          `round ${round}`,
        ).toEqual([]);
        const tables = (await stores[0].query<{ name: string }>('SELECT name FROM system.tables WHERE database = {d:String}', { d: database })).map((t) => t.name);
        expect(tables).toEqual(expect.arrayContaining(KIND_TABLES.map((t) => t.name)));
        // Complete: a later start has nothing left to do.
        expect(await migrateColumnStore(stores[0], KIND_TABLES, { retentionDays: 1 })).toEqual([]);
      } finally {
        await stores[0].command(`DROP DATABASE IF EXISTS ${database}`).catch(() => {});
        await Promise.all(stores.map((s) => s.close()));
      }
    }
  });
});
