import net from 'node:net';

// Where the real local stack (make services-up) listens, and whether this run must
// use it. `make test` and .ci/run set DEVTRAIL_REQUIRE_STACK=1: a suite that needs the
// stack then fails loudly instead of skipping.
export const STACK = {
  kafkaBrokers: (process.env.KAFKA_BROKERS ?? '127.0.0.1:19092').split(','),
  clickhouseUrl: process.env.CLICKHOUSE_URL ?? 'http://127.0.0.1:18123',
  postgresUrl: process.env.DATABASE_URL ?? 'postgresql://devtrail:devtrail@127.0.0.1:15432/devtrail',
};

export const STACK_REQUIRED = process.env.DEVTRAIL_REQUIRE_STACK === '1';
export const NO_STACK_REASON = 'real Kafka/ClickHouse/PostgreSQL not running (make test starts them)';

function reachable(hostPort: string): Promise<boolean> {
  const url = hostPort.includes('://') ? new URL(hostPort) : new URL(`tcp://${hostPort}`);
  return new Promise((resolve) => {
    const s = net.connect({ host: url.hostname, port: Number(url.port) });
    s.setTimeout(1000);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.once('timeout', () => (s.destroy(), resolve(false)));
  });
}

/** True when the stack is up; throws when it is required but down. */
export async function stackUp(): Promise<boolean> {
  const ok = (
    await Promise.all([
      reachable(STACK.kafkaBrokers[0]),
      reachable(STACK.clickhouseUrl),
      reachable(STACK.postgresUrl.replace(/^postgres(ql)?:\/\/[^@]*@/, 'tcp://').replace(/\/[^/]*$/, '')),
    ])
  ).every(Boolean);
  if (!ok && STACK_REQUIRED) throw new Error(`DEVTRAIL_REQUIRE_STACK=1 but ${NO_STACK_REASON}`);
  return ok;
}
