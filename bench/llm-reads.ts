import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs as parseNodeArgs } from 'node:util';
import { createChdbStore } from '@devtrail/column-store/chdb';
import { bucketsOf, migrateColumnStore } from '@devtrail/column-store';
import { loadLlmPrices, priceOf } from '@devtrail/config';
import { KIND_TABLES, readLlmByMetadata, readLlmCalls, readLlmUsage } from '@devtrail/kinds';
import { percentile } from './stats.ts';

// `npx tsx bench/llm-reads.ts [--rows 1000000] [--runs 9] [--untiered]`
// The LLM page's reads over generated calls in the column store (chdb, in-process): the model
// table, the cost and token chart, usage by user, the newest calls and (where the code sorts)
// the costliest calls; p50 wall time and p50 process CPU per read over --runs runs. The same
// script runs on the commit before the effective cost (its reads ignore what they do not take)
// and after it: docs/benchmarks.md records both. --untiered calls gemini-2.5-flash where the
// calls otherwise name gemini-2.5-pro, whose price has a tier past a prompt size: a range
// without a tiered model skips the tiers' thresholds. A script, not a test.

const { values: flags } = parseNodeArgs({
  options: { rows: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '9' }, untiered: { type: 'boolean', default: false } },
});
const ROWS = Number(flags.rows);
const RUNS = Number(flags.runs);
const PROJECT = '00000000-0000-4000-8000-000000000001';
const dir = mkdtempSync(join(os.tmpdir(), 'devtrail-bench-llm-'));
const store = createChdbStore(join(dir, 'ch'), 'devtrail');
await migrateColumnStore(store, KIND_TABLES, { retentionDays: 30 });
const now = Date.now();
// 12 models (one with a routing prefix, one dated, one the table does not price); a fifth of the calls sent with a cost.
await store.command(
  `INSERT INTO llm (project_id, event_id, retention_days, service, environment, release, timestamp, model, provider, operation, input_tokens, output_tokens, cost_usd, latency_ms, metadata)
   SELECT '${PROJECT}', generateUUIDv4(), 30, 'assistant', 'production', '', fromUnixTimestamp64Milli(toInt64(${now} - number * (86400000 / ${ROWS}))),
          ['gpt-4o', 'gpt-4o-mini', 'gpt-4o-mini-2024-07-18', 'openai/gpt-4.1', 'claude-3-5-sonnet', 'claude-3-5-haiku', '${flags.untiered ? 'gemini-2.5-flash' : 'gemini-2.5-pro'}', 'o3-mini', 'gpt-5', 'gpt-5-mini', 'text-embedding-3-small', 'my-local-llama'][number % 12 + 1],
          'openai', 'chat', 100 + number % 5000, 10 + number % 800, if(number % 5 = 0, (number % 100) / 1000, 0), 50 + number % 3000,
          concat('{"enduser.id":"u-', toString(number % 1000), '","session.id":"s-', toString(number % 20000), '","feature":"f', toString(number % 7), '"}')
     FROM numbers(${ROWS})`,
);
const table = loadLlmPrices();
const range = { fromMs: now - 86_400_000, toMs: now + 60_000 };
const buckets = bucketsOf(range, 48);
const f = { projectId: PROJECT, retentionDays: 30, prices: (m: string) => priceOf(table, m) };
const reads: Record<string, () => Promise<unknown>> = {
  'model table': () => readLlmUsage(store, { ...f, buckets, by: ['model', 'provider'], costliestFirst: true, limit: 1000 } as never),
  'cost chart': () =>
    readLlmUsage(store, { ...f, buckets, by: ['bucket', 'model'], measures: ['calls', 'tokens', 'input_tokens', 'output_tokens', 'cost_usd'], limit: 20_000 } as never),
  'by user': () => readLlmByMetadata(store, { ...f, range, key: 'enduser.id', sort: 'cost' } as never),
  'newest calls': () => readLlmCalls(store, { ...f, range, limit: 50 } as never),
  'costliest calls': () => readLlmCalls(store, { ...f, range, limit: 50, sort: 'cost' } as never),
};
for (const [name, read] of Object.entries(reads)) {
  await read(); // warm
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await read();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  console.log(
    `${name.padEnd(16)} p50 ${percentile(
      [...wall].sort((a, b) => a - b),
      50,
    )!.toFixed(1)} ms wall, ${percentile(
      [...cpu].sort((a, b) => a - b),
      50,
    )!.toFixed(1)} ms CPU (${ROWS.toLocaleString('en')} calls, ${RUNS} runs)`,
  );
}
await store.close();
rmSync(dir, { recursive: true, force: true });
