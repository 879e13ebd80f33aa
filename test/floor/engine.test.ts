import { describe, expect, it } from 'vitest';
import { CLICKHOUSE_FLOOR, createClickHouseStore } from '@devtrail/column-store';
import { NO_STACK_REASON, STACK, stackUp } from '../support/stack.ts';

// The "floor" project (vitest.config.ts) runs its suites against this server: it is the exact
// version docs/deployment.md names as tested, with the engine's shipped defaults (the setting
// that named a tuple()'s elements, on by default in 24.7 to 24.8.5, is on).
const up = await stackUp();
describe.skipIf(!up)(`the floor stand-in${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  it('is ClickHouse at the tested floor, with its shipped defaults', async () => {
    const store = createClickHouseStore({ url: STACK.clickhouseUrl, database: 'default' });
    try {
      const [{ v }] = await store.query<{ v: string }>('SELECT version() AS v');
      expect(v).toBe(CLICKHOUSE_FLOOR.tested);
      const [{ value }] = await store.query<{ value: string }>("SELECT value FROM system.settings WHERE name = 'enable_named_columns_in_function_tuple'");
      expect(value).toBe('1');
    } finally {
      await store.close();
    }
  });
});
