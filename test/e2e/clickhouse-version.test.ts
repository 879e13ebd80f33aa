import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/pg-database.ts';
import { freePort, ROOT } from '../support/processes.ts';
import { NO_STACK_REASON, STACK, stackUp } from '../support/stack.ts';

// Every service reads version() at start and refuses a ClickHouse older than the floor
// (docs/deployment.md#clickhouse-version). No ClickHouse that old runs here, so the server is a
// mock: an HTTP endpoint that answers version() as ClickHouse 24.3 does and every other
// statement with an empty 200.
const up = await stackUp();

describe('the ClickHouse version at start (a mock server: answers version() and every other statement with an empty 200)', () => {
  let server: Server;
  let url: string;
  const seen: string[] = [];
  let version = '24.3.1.1';

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push(body);
        res.writeHead(200, { 'X-ClickHouse-Summary': '{}' }).end(/version\(\)/.test(body) ? `{"v":"${version}"}\n` : '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://user:secret@127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  for (const service of ['consumers', 'dashboard', 'receiver']) {
    it(`the ${service} exits, naming the server's version and the floor, and never migrates`, { timeout: 60_000 }, async () => {
      seen.length = 0;
      const child = spawn(process.execPath, ['--import', 'tsx', `services/${service}/src/main.ts`], {
        cwd: ROOT,
        env: { ...process.env, CLICKHOUSE_URL: url, PORT: '0', LOG_LEVEL: 'info' },
      });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, output).not.toBe(0);
      expect(output).toContain(`ClickHouse 24.3.1.1 at http://127.0.0.1:${new URL(url).port} is older than devtrail supports: it needs ClickHouse 24.8 or later`);
      expect(output).not.toContain('secret');
      expect(seen.some((sql) => /CREATE TABLE/.test(sql))).toBe(false);
    });
  }

  it.skipIf(!up)(
    `with CLICKHOUSE_MIGRATE=false, a service at the floor starts and sends no DDL${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`,
    { timeout: 90_000 },
    async () => {
      seen.length = 0;
      version = '24.8.4.1';
      const db = await createTestDatabase();
      const port = await freePort();
      const ns = `nomigrate-${Date.now().toString(36)}`;
      const child = spawn(process.execPath, ['--import', 'tsx', 'services/consumers/src/main.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          CLICKHOUSE_URL: url,
          CLICKHOUSE_MIGRATE: 'false',
          DATABASE_URL: db.url,
          KAFKA_BROKERS: STACK.kafkaBrokers.join(','),
          KAFKA_TOPIC_PREFIX: `${ns}.`,
          CONSUMER_GROUP_PREFIX: `${ns}-`,
          CONSUMER_METRICS_PORT: String(port),
        },
      });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      try {
        const deadline = Date.now() + 60_000;
        while (
          !(await fetch(`http://127.0.0.1:${port}/health`).then(
            (r) => r.ok,
            () => false,
          ))
        ) {
          if (child.exitCode !== null || Date.now() > deadline) throw new Error(`consumers did not start:\n${output}`);
          await new Promise((r) => setTimeout(r, 250));
        }
        expect(seen.some((sql) => /version\(\)/.test(sql))).toBe(true);
        expect(seen.filter((sql) => /\b(CREATE|ALTER|RENAME|DROP)\b/i.test(sql))).toEqual([]);
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
        await db.drop().catch(() => {});
      }
    },
  );
});
