import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { createClickHouseStore, ensureClickHouseDatabase } from '../src/index.ts';
import { columnStoreContract } from './column-store.contract.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../../../test/support/stack.ts';

if (await stackUp()) {
  columnStoreContract('ClickHouse over HTTP (real endpoint)', async (reads) => {
    const opts = { url: STACK.clickhouseUrl, database: `dt_test_${randomBytes(4).toString('hex')}` };
    await ensureClickHouseDatabase(opts);
    const store = createClickHouseStore({ ...opts, reads });
    return {
      store,
      cleanup: async () => {
        const admin = createClickHouseStore({ ...opts, database: 'default' });
        await admin.command(`DROP DATABASE IF EXISTS ${opts.database}`);
        await admin.close();
      },
    };
  });
} else {
  describe.skip(`column store contract: ClickHouse (skipped: ${NO_STACK_REASON})`, () => {});
}
