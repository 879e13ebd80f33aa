import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@devtrail/config';
import { topicNames } from '@devtrail/contract';
import { createMemoryLog } from '@devtrail/message-log';
import { createPgStore, migrateRelational, projectsRepo, type RelationalStore } from '@devtrail/relational-store';
import { createHttpApp } from '@devtrail/http';
import type { Adapters } from '@devtrail/runtime';
import type { FastifyInstance } from 'fastify';
import { createReceiver, type Receiver } from '../src/index.ts';
import { createTestDatabase } from '../../../test/support/pg-database.ts';
import { stackUp, NO_STACK_REASON } from '../../../test/support/stack.ts';
import { tcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.ts';

// The real PostgreSQL behind a proxy we can cut: while it is unreachable, a key that is
// not cached gets 503 with Retry-After (never a 500), a cached key keeps working, and
// everything answers 200 again once it is back.
const up = await stackUp();

/** The time part of a UUIDv7 made now. */
const uuidV7Prefix = () =>
  Date.now()
    .toString(16)
    .padStart(12, '0')
    .replace(/^(.{8})(.{4})$/, '$1-$2');

describe.skipIf(!up)(`PostgreSQL unreachable (real PostgreSQL behind a cut proxy)${up ? '' : ` — skipped: ${NO_STACK_REASON}`}`, () => {
  let db: { url: string; drop: () => Promise<void> };
  let proxy: TcpProxy;
  let relational: RelationalStore;
  let receiver: Receiver;
  let app: FastifyInstance;
  let cachedKey: string;
  let uncachedKey: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    const u = new URL(db.url);
    proxy = await tcpProxy({ host: u.hostname, port: Number(u.port) });
    u.port = String(proxy.port);
    relational = createPgStore({ url: u.toString() });
    await migrateRelational(relational);
    const repo = projectsRepo(relational);
    cachedKey = (await repo.create('cached', 5000)).apiKey;
    uncachedKey = (await repo.create('uncached', 5000)).apiKey;
    const messageLog = createMemoryLog();
    const topics = topicNames('devtrail.');
    await messageLog.ensureTopics(topics.all(), 1);
    const adapters = { messageLog, relational, topics, columnStore: undefined, close: async () => {} } as unknown as Adapters;
    const logger = createLogger('silent', 'pg-outage-test');
    receiver = await createReceiver(adapters, logger, {
      bodyLimitBytes: 1024 * 1024,
      maxPendingEvents: 10_000,
      ackTimeoutMs: 5000,
      defaultRetentionDays: 30,
      keyCacheTtlMs: 60_000,
      keyCacheMaxStaleMs: 600_000,
    });
    app = await createHttpApp(logger, 1024 * 1024);
    await receiver.register(app);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.stop();
    await relational?.close();
    await proxy?.close();
    await db?.drop();
  });

  const post = (key: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/ingest/logs',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      payload: { logs: [{ level: 'info', message: 'm' }] },
    });

  it('answers 503 with Retry-After for an uncached key, keeps cached keys working, recovers', async () => {
    expect((await post(cachedKey)).statusCode).toBe(200); // now cached
    proxy.cut();
    const refused = await post(uncachedKey);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json().error).toMatch(/project database/);
    expect((await post(cachedKey)).statusCode).toBe(200);
    // A request whose Idempotency-Key's first receive time cannot be read: 503, never a second copy
    // under a new time. A UUIDv7 key carries its time and needs no PostgreSQL.
    const keyed = await post(cachedKey, { 'idempotency-key': 'plain-9681' });
    expect(keyed.statusCode).toBe(503);
    expect(keyed.headers['retry-after']).toBe('5');
    expect((await post(cachedKey, { 'idempotency-key': '019a8c1e-7f3b-7abc-8def-0123456789ab'.replace(/^[0-9a-f]{8}-[0-9a-f]{4}/, uuidV7Prefix()) })).statusCode).toBe(
      200,
    );
    proxy.restore();
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && (status = (await post(uncachedKey)).statusCode) !== 200) await new Promise((r) => setTimeout(r, 200));
    expect(status).toBe(200);
  });
});
