// Insert throughput through the production client (not a test; run with
// `npm run bench:insert -w @devtrail/clickhouse-standin`). Starts a stand-in in
// this process unless CLICKHOUSE_URL points at a running one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@clickhouse/client';
import { startStandin } from '../src/index.ts';

const TOTAL_ROWS = 100_000;
const BATCH_ROWS = 10_000;

const dataDir = mkdtempSync(join(tmpdir(), 'clickhouse-standin-bench-'));
const standin = process.env.CLICKHOUSE_URL ? undefined : await startStandin({ port: 0, dataDir });
const client = createClient({ url: process.env.CLICKHOUSE_URL ?? standin!.url });

try {
  await client.command({ query: 'DROP TABLE IF EXISTS bench_events' });
  await client.command({
    query: `CREATE TABLE bench_events (
      ts DateTime64(3, 'UTC'), name LowCardinality(String), user_id UInt64, attrs Map(String, String)
    ) ENGINE = MergeTree ORDER BY (name, ts)`,
  });
  const batch = (offset: number) =>
    Array.from({ length: BATCH_ROWS }, (_, i) => ({
      ts: '2024-05-01 12:00:00.000',
      name: `event_${(offset + i) % 20}`,
      user_id: offset + i,
      attrs: { path: `/page/${i % 100}`, ok: 'true' },
    }));
  const started = performance.now();
  for (let offset = 0; offset < TOTAL_ROWS; offset += BATCH_ROWS) {
    await client.insert({ table: 'bench_events', values: batch(offset), format: 'JSONEachRow' });
  }
  const seconds = (performance.now() - started) / 1000;
  const [{ n }] = await (await client.query({ query: 'SELECT count() AS n FROM bench_events', format: 'JSONEachRow' })).json<{ n: string }>();
  console.log(`${n} rows in ${seconds.toFixed(2)} s: ${Math.round(TOTAL_ROWS / seconds).toLocaleString('en-US')} rows/s (batches of ${BATCH_ROWS})`);
} finally {
  await client.close();
  await standin?.close();
  rmSync(dataDir, { recursive: true, force: true });
}
