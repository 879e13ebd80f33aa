import { expect, it } from 'vitest';
import { LimitReached } from '@devtrail/failures';
import { ColumnStoreError, READ_TIMEOUT, READ_TOO_LARGE, type ColumnStore, type ReadLimits } from '@devtrail/column-store';

// The read limits as a store's reads meet them (docs/api.md, "Read limits"): every read, of either
// class, without the caller asking. Run against each adapter (column-store.contract.ts) and
// against the store as the services assemble it, wrappers included (libs/runtime/test).

/** Seconds of work over fewer rows than the rows limit, checked often (a small block): only the time limit stops it. */
const slow = (limits: ReadLimits) =>
  `SELECT count() AS n FROM numbers(${Math.floor(limits.maxRowsToRead * 0.9)}) WHERE arraySum(arrayMap(x -> sipHash64(x, number) % 3, range(400))) = 7 SETTINGS max_block_size = 8192`;

const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

/** `limits`: the store's read limits, whose rows limit is at most 10 million. */
export function readLimitsContract(storeOf: () => ColumnStore, limits: ReadLimits): void {
  it('stops a read that scans past the rows limit: a LimitReached that only a smaller read can pass (400), for lookups and searches', async () => {
    const store = storeOf();
    const under = Math.floor(limits.maxRowsToRead / 2);
    expect(await store.query<{ n: string | number }>(`SELECT count() AS n FROM numbers(${under})`)).toEqual([{ n: expect.anything() }]);
    for (const read of [undefined, 'lookup', 'search'] as const) {
      const err = await failureOf(store.query(`SELECT count() AS n FROM numbers(${limits.maxRowsToRead * 10})`, {}, read));
      expect(err, `${read}`).toBeInstanceOf(LimitReached);
      expect((err as LimitReached).retryable).toBe(false);
      expect((err as LimitReached).message).toBe(READ_TOO_LARGE);
    }
  });

  it('stops a read that runs past the time limit: a retryable LimitReached (503), within a fraction of the limit', async () => {
    const store = storeOf();
    for (const read of ['lookup', 'search'] as const) {
      const t0 = performance.now();
      const err = await failureOf(store.query(slow(limits), {}, read));
      const ms = performance.now() - t0;
      expect(err, read).toBeInstanceOf(LimitReached);
      expect((err as LimitReached).retryable).toBe(true);
      expect((err as LimitReached).message).toBe(READ_TIMEOUT(limits.maxExecutionMs));
      expect(ms).toBeGreaterThanOrEqual(limits.maxExecutionMs * 0.9);
      // The engine stops it itself: a loaded machine adds to the limit, never multiplies it.
      expect(ms).toBeLessThan(limits.maxExecutionMs + 5000);
    }
  });

  it('reads under the limits as the engine sees them, reads only', async () => {
    const store = storeOf();
    const applied = await store.query<{ name: string; value: string }>(
      "SELECT name, value FROM system.settings WHERE name IN ('readonly', 'max_execution_time', 'max_rows_to_read', 'max_bytes_to_read') ORDER BY name",
    );
    expect(Object.fromEntries(applied.map((r) => [r.name, r.value]))).toEqual({
      max_bytes_to_read: String(limits.maxBytesToRead),
      max_execution_time: String(limits.maxExecutionMs / 1000),
      max_rows_to_read: String(limits.maxRowsToRead),
      readonly: '2',
    });
    const write = await failureOf(store.query('CREATE TABLE read_limits_probe (x UInt8) ENGINE = Memory'));
    expect(write).toBeInstanceOf(ColumnStoreError);
    expect((write as ColumnStoreError).code).toBe('164'); // READONLY
  });
}
