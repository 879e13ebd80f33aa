import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertsRepo, createPgliteStore, createPgStore, migrateRelational, projectsRepo, type AlertsRepo, type RelationalStore } from '@devtrail/relational-store';
import { createDeliverer, type Deliverer } from '../src/deliverer.ts';
import { createTestDatabase } from '../../../test/support/pg-database.ts';
import { NO_STACK_REASON, stackUp } from '../../../test/support/stack.ts';

// One destination cannot delay another (docs/alerts.md, "Delivery"): projects whose webhooks
// never answer are queued first, with the default 10 s send timeout; another project's
// notification must still arrive within 2 s. The outbox on both relational stores: real
// PostgreSQL and PGlite (the embedded mode's).
const up = await stackUp();

async function onPostgres() {
  const db = await createTestDatabase();
  return { store: createPgStore({ url: db.url }), drop: db.drop };
}
async function onPglite() {
  return { store: await createPgliteStore(), drop: async () => {} };
}

describe.skipIf(!up)(`the deliverer on PostgreSQL${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => delivererSuite(onPostgres));
describe('the deliverer on PGlite', () => delivererSuite(onPglite));

function delivererSuite(open: () => Promise<{ store: RelationalStore; drop: () => Promise<void> }>) {
  let drop: () => Promise<void>;
  let store: RelationalStore;
  let repo: AlertsRepo;
  let server: Server;
  let base = '';
  const arrived = new Map<string, number>();
  let deliverer: Deliverer | undefined;

  beforeAll(async () => {
    ({ store, drop } = await open());
    await migrateRelational(store);
    repo = alertsRepo(store);
    // /hang/* reads the request and never answers; anything else answers 200 at once.
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url?.startsWith('/hang/')) return;
        arrived.set(req.url ?? '', Date.now());
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    const stopped = deliverer?.stop();
    server?.closeAllConnections(); // the hanging sends end now, not at their timeout
    server?.close();
    await stopped;
    await store?.close();
    await drop?.();
  });

  async function queue(projectName: string, path: string): Promise<void> {
    const { project } = await projectsRepo(store).create(projectName, 1000);
    const rule = await repo.createRule(project.id, {
      name: projectName,
      type: 'new_group',
      params: {},
      enabled: true,
      destinations: [{ type: 'webhook', url: `${base}${path}` }],
    });
    await store.transaction((tx) =>
      repo.enqueue(tx, [{ projectId: project.id, ruleId: rule.id, destinationId: rule.destinations[0].id, dedupKey: 'k', payload: { title: projectName } }]),
    );
  }

  it("a webhook that never answers holds only its own notifications: another project's arrives within 2 s", async () => {
    // More hanging destinations than the old deliverer's batch (4), each with two notifications queued first.
    for (let i = 0; i < 6; i++) {
      await queue(`hanging ${i}`, `/hang/${i}`);
      await queue(`hanging ${i} again`, `/hang/${i}`);
    }
    await new Promise((r) => setTimeout(r, 20)); // queued strictly after them
    await queue('healthy', '/ok');
    const limits = { timeoutMs: 10_000, maxResponseBytes: 10_000, allowPrivateAddresses: true };
    const logger = { info() {}, warn() {}, error() {} };
    const started = Date.now();
    deliverer = createDeliverer({ repo, relational: store, delivery: { limits, retryBaseMs: 1000, retryMaxMs: 60_000, maxAttempts: 5 }, logger });
    await deliverer.start();
    while (!arrived.has('/ok') && Date.now() - started < 12_000) await new Promise((r) => setTimeout(r, 20));
    const tookMs = (arrived.get('/ok') ?? Number.POSITIVE_INFINITY) - started;
    console.log(`the healthy project's notification arrived ${tookMs} ms after start, 6 webhooks hanging`);
    expect(tookMs).toBeLessThan(2000);
    // Each hanging destination is sent one notification at a time.
    const leased = await store.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM alert_notifications WHERE status = 'pending' AND lease_until > now() GROUP BY destination_id ORDER BY 1 DESC LIMIT 1",
    );
    expect(leased[0].n).toBe(1);
  });
}
