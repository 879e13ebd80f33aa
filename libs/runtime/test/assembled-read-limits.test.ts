import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { ensureClickHouseDatabase, createClickHouseStore } from '@devtrail/column-store';
import { createLogger, loadConfig, type Config } from '@devtrail/config';
import { createMetrics } from '@devtrail/metrics';
import { openAdapters, type Adapters } from '../src/index.ts';
import { readLimitsContract } from '../../column-store/test/read-limits.contract.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../../../test/support/stack.ts';

// The read limits as every service meets them: the column store opened by openAdapters, from
// the configuration, with the metrics wrapper around it, exactly as the receiver, the consumers,
// the dashboard and `npm start` assemble it (docs/api.md, "Read limits"). A wrapper that drops a
// read's settings fails here, where the adapters' own contract would still pass.

const LIMITS = { READ_MAX_EXECUTION_MS: '1500', READ_MAX_ROWS_TO_READ: '1000000', READ_MAX_BYTES_TO_READ: '900000000' };
const logger = createLogger('warn', 'assembled-read-limits');

function assembled(name: string, env: () => Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>) {
  describe(`the assembled column store (${name}) applies the read limits`, () => {
    let adapters: Adapters;
    let config: Config;
    let cleanup: () => Promise<void> = async () => {};
    beforeAll(async () => {
      const made = await env();
      cleanup = made.cleanup;
      config = loadConfig({ ...made.env, ...LIMITS, LOG_LEVEL: 'warn' });
      adapters = await openAdapters(config, logger, { migrate: config.mode === 'embedded', metrics: createMetrics() });
    });
    afterAll(async () => {
      await adapters?.close();
      await cleanup();
    });
    readLimitsContract(() => adapters.columnStore, { maxExecutionMs: 1500, maxRowsToRead: 1_000_000, maxBytesToRead: 900_000_000 });
  });
}

assembled('embedded: chdb', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dt-assembled-'));
  return { env: { DEVTRAIL_MODE: 'embedded', DEVTRAIL_DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
});

if (await stackUp()) {
  assembled('distributed: ClickHouse over HTTP', async () => {
    const database = `dt_assembled_${randomBytes(4).toString('hex')}`;
    await ensureClickHouseDatabase({ url: STACK.clickhouseUrl, database });
    return {
      env: {
        DEVTRAIL_MODE: 'distributed',
        CLICKHOUSE_URL: STACK.clickhouseUrl,
        CLICKHOUSE_DATABASE: database,
        DATABASE_URL: STACK.postgresUrl,
        KAFKA_BROKERS: STACK.kafkaBrokers.join(','),
      },
      cleanup: async () => {
        const admin = createClickHouseStore({ url: STACK.clickhouseUrl, database: 'default' });
        await admin.command(`DROP DATABASE IF EXISTS ${database}`);
        await admin.close();
      },
    };
  });
} else {
  describe.skip(`the assembled column store (distributed) (skipped: ${NO_STACK_REASON})`, () => {});
}
