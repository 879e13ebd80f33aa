import type { FastifyInstance } from 'fastify';
import { createLogger } from '@devtrail/config';
import { decodeMessage, type Envelope } from '@devtrail/contract';
import type { EventKind } from '@devtrail/kinds';
import { projectsRepo } from '@devtrail/relational-store';
import { createHttpApp } from '@devtrail/http';
import type { Adapters } from '@devtrail/runtime';
import { createReceiver, type Receiver } from '../src/index.ts';
import { embeddedAdapters } from '../../../test/support/embedded-adapters.ts';

export interface Harness {
  app: FastifyInstance;
  adapters: Adapters;
  receiver: Receiver;
  project: { id: string; key: string };
  newProject(name?: string, rateLimit?: number): Promise<{ id: string; key: string }>;
  /** Every event produced so far to a kind's topic, decoded. */
  produced<K extends EventKind>(kind: K): Promise<Array<Envelope<K>>>;
  close(): Promise<void>;
}

/** The receiver through its front door (fastify.inject), over the in-process adapters. */
export async function receiverHarness(opts: { logCapacity?: number; bodyLimitBytes?: number } = {}): Promise<Harness> {
  const adapters = await embeddedAdapters({ logCapacity: opts.logCapacity });
  const logger = createLogger('silent', 'receiver-test');
  const bodyLimitBytes = opts.bodyLimitBytes ?? 5 * 1024 * 1024;
  const receiver = await createReceiver(adapters, logger, {
    bodyLimitBytes,
    maxPendingEvents: 100_000,
    ackTimeoutMs: 5000,
    keyCacheTtlMs: 60_000,
    keyCacheMaxStaleMs: 600_000,
    defaultRetentionDays: 30,
  });
  const app = await createHttpApp(logger, bodyLimitBytes);
  await receiver.register(app);
  await app.ready();
  const repo = projectsRepo(adapters.relational);
  const newProject = async (name = 'test', rateLimit = 5000) => {
    const { project, apiKey } = await repo.create(name, rateLimit);
    return { id: project.id, key: apiKey };
  };
  let group = 0;
  return {
    app,
    adapters,
    receiver,
    project: await newProject(),
    newProject,
    async produced<K extends EventKind>(kind: K) {
      const topic = adapters.topics.of(kind);
      const lag = await adapters.messageLog.lag(`peek-${group}`, [topic]);
      const total = lag.reduce((n, l) => n + Number(l.end) - Number(l.committed), 0);
      const out: Array<Envelope<K>> = [];
      let messages = 0;
      const c = adapters.messageLog.createConsumer({ groupId: `peek-${group++}`, topics: [topic] });
      await c.run(async (batch) => {
        for (const m of batch) out.push(...decodeMessage(kind, m).events);
        messages += batch.length;
      });
      // Generous: it only waits while messages are missing, and a loaded CI box is slow.
      const deadline = Date.now() + 30_000;
      while (messages < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await c.stop();
      return out;
    },
    async close() {
      await app.close();
      await receiver.stop();
      await adapters.close();
    },
  };
}
