import { describe } from 'vitest';
import { createPgStore } from '../src/index.ts';
import { relationalStoreContract } from './relational-store.contract.ts';
import { createTestDatabase } from '../../../test/support/pg-database.ts';
import { NO_STACK_REASON, stackUp } from '../../../test/support/stack.ts';

if (await stackUp()) {
  relationalStoreContract('PostgreSQL 15 (real server)', async () => {
    const db = await createTestDatabase();
    return { store: createPgStore({ url: db.url }), cleanup: db.drop };
  });
} else {
  describe.skip(`relational store contract: PostgreSQL (skipped: ${NO_STACK_REASON})`, () => {});
}
