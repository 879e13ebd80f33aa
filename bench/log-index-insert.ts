import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs as parseNodeArgs } from 'node:util';
import { createChdbStore } from '@devtrail/column-store/chdb';
import { migrateColumnStore } from '@devtrail/column-store';
import { KINDS } from '@devtrail/kinds';
import { percentile } from './stats.ts';

// `npx tsx bench/log-index-insert.ts [--rows 500000] [--batch 5000] [--rounds 3]`
// What the logs table's search indexes cost on the write path: the consumer's insert (rows
// as the logs sink makes them, JSONEachRow batches) into the table with its first indexes and
// with the search indexes, in turns, into chdb. A script, not a test (docs/benchmarks.md).

const { values: flags } = parseNodeArgs({
  options: { rows: { type: 'string', default: '500000' }, batch: { type: 'string', default: '5000' }, rounds: { type: 'string', default: '3' } },
});
const ROWS = Number(flags.rows);
const BATCH = Number(flags.batch);
const ROUNDS = Number(flags.rounds);
const PROJECT = '00000000-0000-4000-8000-000000000002';
const SERVICES = ['checkout', 'cart', 'search', 'auth', 'payments', 'email'];

/** Batches of rows as the logs sink writes them. */
function batches(): Array<Array<Record<string, unknown>>> {
  const now = Date.now();
  const received = new Date(now).toISOString();
  const out = [];
  for (let b = 0; b < ROWS / BATCH; b++) {
    const rows = [];
    for (let i = 0; i < BATCH; i++) {
      const n = b * BATCH + i;
      const ms = n % 2000;
      rows.push(
        KINDS.log.toRow(
          {
            project_id: PROJECT,
            event_id: randomUUID(),
            received_at: received,
            data: {
              service: SERVICES[n % 6],
              environment: 'production',
              release: 'v1.4.2',
              timestamp: new Date(now - (ROWS - n) * 10).toISOString(),
              level: n % 10 === 0 ? 'warn' : 'info',
              message: `GET /api/${SERVICES[n % 6]}/${n % 5000} 200 in ${ms} ms`,
              metadata: { user_id: `u_${(n * 7919) % 100000}`, request_id: (n * 2654435761).toString(16), duration_ms: ms, route: `/api/${SERVICES[n % 6]}` },
              trace_id: n % 2 ? '' : (n * 40503).toString(16).padStart(32, '0'),
              span_id: '',
              request_id: '',
              context: 'http',
            },
          },
          30,
        ),
      );
    }
    out.push(rows);
  }
  return out;
}

async function main() {
  const dir = mkdtempSync(join(os.tmpdir(), 'dt-bench-insert-'));
  const store = createChdbStore(dir, 'default');
  const data = batches();
  const tables = {
    first: { ...KINDS.log.tableDef, indexes: KINDS.log.tableDef.indexes!.filter((i) => !i.startsWith('idx_text_')) },
    search: KINDS.log.tableDef,
  };
  const seconds: Record<string, number[]> = { first: [], search: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, table] of Object.entries(tables)) {
      await store.command(`CREATE DATABASE IF NOT EXISTS bench_${name}`);
      await store.command(`USE bench_${name}`);
      await store.command('DROP TABLE IF EXISTS logs');
      await migrateColumnStore(store, [table], { retentionDays: 30 });
      const t0 = performance.now();
      for (const rows of data) await store.insert('logs', rows);
      seconds[name].push((performance.now() - t0) / 1000);
      process.stderr.write(`[log-index-insert] round ${round + 1} ${name}: ${seconds[name].at(-1)!.toFixed(2)} s\n`);
    }
  }
  console.log(
    `\nlogs table inserts, ${ROWS.toLocaleString('en')} rows in batches of ${BATCH}, ${ROUNDS} rounds (${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(2)})`,
  );
  for (const [name, s] of Object.entries(seconds)) {
    const median = percentile(
      [...s].sort((a, b) => a - b),
      50,
    )!;
    console.log(`  ${name === 'first' ? 'first indexes ' : 'search indexes'}: median ${median.toFixed(2)} s, ${Math.round(ROWS / median).toLocaleString('en')} rows/s`);
  }
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`[log-index-insert] error: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
