import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChdbStore } from '../src/chdb-store.ts';
import { columnStoreContract } from './column-store.contract.ts';

columnStoreContract('chdb (in-process)', async (reads) => {
  const dir = mkdtempSync(join(tmpdir(), 'dt-chdb-'));
  return { store: createChdbStore(dir, 'devtrail_test', reads), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
});
