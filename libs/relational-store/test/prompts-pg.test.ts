import { describe } from 'vitest';
import { createPgStore } from '../src/index.ts';
import { promptsContract } from './prompts.contract.ts';
import { createTestDatabase } from '../../../test/support/pg-database.ts';
import { NO_STACK_REASON, stackUp } from '../../../test/support/stack.ts';

if (await stackUp()) {
  promptsContract('PostgreSQL 15 (real server)', async () => {
    const db = await createTestDatabase();
    return { store: createPgStore({ url: db.url }), cleanup: db.drop };
  });
} else {
  describe.skip(`prompt registry contract: PostgreSQL (skipped: ${NO_STACK_REASON})`, () => {});
}
