import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChdbStore } from '@devtrail/column-store/chdb';
import { createClickHouseStore, createTableSql, ensureClickHouseDatabase, type ColumnStore } from '@devtrail/column-store';
import { effectiveCostUsd, estimateCostUsd, loadLlmPrices, priceOf, withEdits, type ModelPrice } from '@devtrail/config';
import { KINDS, readLlmCalls, readLlmUsage } from '@devtrail/kinds';
import { NO_STACK_REASON, STACK, stackUp } from '../../../test/support/stack.ts';
import { UNHURRIED_READS } from '../../../test/support/unhurried-reads.ts';

// The SQL estimate of a call (libs/kinds llm/cost.ts: the reads) is the JavaScript one
// (libs/config estimateCostUsd: the llm_cost alert) to the last digit, for generated price tables
// (cached-input prices, tiers past a prompt size, edits over the files' prices) and calls (cached
// tokens up to and past their input tokens, on both sides of each tier's threshold, models the
// table does not price, costs sent). In chdb, over HTTP on the local stack, and on the oldest
// ClickHouse supported (the floor lane runs this file).

const MODELS = ['alpha', 'beta', 'gamma-2025', 'unpriced'];
const price = fc.integer({ min: 0, max: 200_000 }).map((n) => n / 1000);
const tiers = fc
  .uniqueArray(fc.integer({ min: 1, max: 400_000 }), { maxLength: 3 })
  .chain((above) =>
    fc.tuple(
      ...above
        .sort((a, b) => a - b)
        .map((a) => fc.record({ above_input_tokens: fc.constant(a), input: price, output: price, cached_input: fc.option(price, { nil: undefined }) })),
    ),
  );
const modelPrice = (model: string) =>
  fc.record({ model: fc.constant(model), input: price, output: price, cached_input: fc.option(price, { nil: undefined }), tiers }) as fc.Arbitrary<ModelPrice>;
const call = fc
  .record({
    model: fc.constantFrom(...MODELS),
    input_tokens: fc.oneof(fc.integer({ min: 0, max: 500_000 }), fc.constantFrom(0, 1, 128_000, 128_001, 200_000, 200_001)),
    output_tokens: fc.integer({ min: 0, max: 60_000 }),
    cached: fc.integer({ min: 0, max: 600_000 }),
    sent: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: price }),
  })
  .map((c) => ({ ...c, cached_input_tokens: Math.min(c.cached, c.input_tokens) }));

const cases = fc.sample(
  fc.record({ alpha: modelPrice('alpha'), beta: modelPrice('beta'), gamma: modelPrice('gamma'), calls: fc.array(call, { minLength: 40, maxLength: 40 }) }),
  { numRuns: 6, seed: 41 },
);

function costSuite(name: string, open: () => Promise<{ store: ColumnStore; cleanup: () => Promise<void> }>) {
  describe(`LLM cost SQL: ${name}`, () => {
    let store: ColumnStore;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ store, cleanup } = await open());
      await store.command(createTableSql(KINDS.llm.tableDef, 30));
    });
    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });

    it.each(cases.map((c, i) => [i, c] as const))('case %i: every estimate and total equals the JavaScript one', async (_i, c) => {
      const table = loadLlmPrices();
      withEdits(
        table,
        [c.alpha, c.beta, c.gamma].map((price) => ({ price })),
      ); // gamma prices gamma-2025 by its base name
      const project = randomUUID();
      const now = new Date().toISOString();
      const calls = c.calls.map((x, i) => ({
        service: 's',
        environment: 'production',
        release: '',
        timestamp: new Date(Date.now() - i * 1000).toISOString(),
        model: x.model,
        provider: 'p',
        operation: 'chat',
        input_tokens: x.input_tokens,
        output_tokens: x.output_tokens,
        cached_input_tokens: x.cached_input_tokens,
        cost_usd: x.sent,
        latency_ms: 1,
        metadata: {},
        input: [],
        output: [],
        content_truncated: false,
      }));
      await store.insert(
        KINDS.llm.name,
        calls.map((data) => KINDS.llm.toRow({ project_id: project, event_id: randomUUID(), received_at: now, data: data as never }, 30)),
      );
      const prices = (m: string) => priceOf(table, m);
      const read = (await readLlmCalls(store, { projectId: project, retentionDays: 30, prices, limit: 100 })).calls;
      expect(read).toHaveLength(calls.length);
      for (const r of read) {
        const want = estimateCostUsd(table, r.model, r.input_tokens, r.output_tokens, r.cached_input_tokens);
        expect(r.estimated_cost_usd, JSON.stringify({ ...r, input: undefined, output: undefined, price: priceOf(table, r.model) })).toBe(want);
        expect(r.cost_usd).toBe(effectiveCostUsd(table, r));
      }
      const [total] = await readLlmUsage(store, { projectId: project, retentionDays: 30, prices, by: [], measures: ['calls', 'cost_usd', 'cached_input_tokens'] });
      expect(total.calls).toBe(calls.length);
      expect(total.cached_input_tokens).toBe(calls.reduce((n, x) => n + x.cached_input_tokens, 0));
      expect(total.cost_usd).toBeCloseTo(
        read.reduce((n, r) => n + r.cost_usd, 0),
        9,
      );
    });
  });
}

costSuite('chdb (in-process)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dt-llm-cost-'));
  return { store: createChdbStore(dir, 'llm_cost_test', UNHURRIED_READS), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
});
if (await stackUp())
  costSuite('ClickHouse over HTTP (the local stack, or the floor)', async () => {
    const opts = { url: STACK.clickhouseUrl, database: `dt_llm_cost_${randomBytes(4).toString('hex')}` };
    await ensureClickHouseDatabase(opts);
    return {
      store: createClickHouseStore(opts),
      cleanup: async () => {
        const admin = createClickHouseStore({ ...opts, database: 'default' });
        await admin.command(`DROP DATABASE IF EXISTS ${opts.database}`);
        await admin.close();
      },
    };
  });
else describe.skip(`LLM cost SQL over ClickHouse HTTP (skipped: ${NO_STACK_REASON})`, () => {});
