import { describe, expect, it } from 'vitest';
import { pipeline, type ServiceProcess } from '../support/processes.ts';
import { DEEP } from '../support/property.ts';
import { NO_STACK_REASON, stackUp } from '../support/stack.ts';

// Replicas of every service started at the same moment on empty databases (a fresh
// PostgreSQL database, a ClickHouse database and Kafka topics that do not exist yet) all
// come up: each migrates the stores and creates the topics, and none may lose a race to
// another and exit. One round a run, two in a deep run (docs/testing.md), each on new databases.
const up = await stackUp();
const SERVICES = ['receiver', 'consumers', 'dashboard'] as const;
const REPLICAS = 3;
const ROUNDS = DEEP ? 2 : 1;

describe.skipIf(!up)(`replicas started together${up ? '' : ` (skipped: ${NO_STACK_REASON})`}`, () => {
  it(`${REPLICAS} replicas of each service on empty databases all come up, ${ROUNDS} times`, { timeout: 600_000 }, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const p = await pipeline({ LOG_LEVEL: 'warn' });
      try {
        const starts = SERVICES.flatMap((name) => Array.from({ length: REPLICAS }, () => p.start(name)));
        const outcomes = await Promise.allSettled(starts);
        const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [String((o.reason as Error).message).slice(0, 3000)] : []));
        expect(failures, `round ${round}`).toEqual([]);
        const procs = outcomes.map((o) => (o as PromiseFulfilledResult<ServiceProcess>).value);
        // Up means ready, not only alive: every replica sees all three stores.
        for (const proc of procs) {
          const r = await fetch(`${proc.url}/health/ready`);
          expect(r.status, `${proc.name} round ${round}: ${await r.text()}`).toBe(200);
        }
        await new Promise((r) => setTimeout(r, 1000));
        expect(
          procs.filter((x) => x.child.exitCode !== null).map((x) => `${x.name}: ${x.output().slice(-2000)}`),
          `round ${round}`,
        ).toEqual([]);
      } finally {
        await p.close();
      }
    }
  });
});
