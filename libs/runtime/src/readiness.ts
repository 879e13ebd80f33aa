import type { FastifyInstance } from 'fastify';
import type { Adapters } from './adapters.ts';

// Liveness and readiness, the same on every service (docs/operations.md#probes). Readiness
// checks each backend the service uses on its own line and names the one that is down; any
// one down makes the whole answer 503.

export interface CheckResult {
  status: 'up' | 'down';
  kind: string;
  latency_ms: number;
  error?: string;
}

export type Dependency = 'kafka' | 'clickhouse' | 'postgres';
export const ALL_DEPENDENCIES: readonly Dependency[] = ['kafka', 'clickhouse', 'postgres'];

export interface Readiness {
  status: 'ok' | 'unavailable';
  timestamp: string;
  /** The dependencies that are down (empty when ready). */
  down: Dependency[];
  checks: { kafka?: CheckResult; clickhouse?: CheckResult; postgres?: CheckResult };
}

async function check(kind: string, fn: () => Promise<void>, timeoutMs: number): Promise<CheckResult> {
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([fn(), new Promise((_, rej) => (timer = setTimeout(() => rej(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)))]);
    return { status: 'up', kind, latency_ms: Date.now() - t0 };
  } catch (err) {
    return { status: 'down', kind, latency_ms: Date.now() - t0, error: (err as Error).message?.slice(0, 300) ?? 'unknown error' };
  } finally {
    clearTimeout(timer);
  }
}

export async function readiness(
  a: Pick<Adapters, 'messageLog' | 'columnStore' | 'relational'>,
  deps: readonly Dependency[] = ALL_DEPENDENCIES,
  timeoutMs = 3000,
): Promise<Readiness> {
  const probes: Record<Dependency, () => Promise<CheckResult>> = {
    kafka: () => check(a.messageLog.kind, () => a.messageLog.ping(), timeoutMs),
    clickhouse: () => check(a.columnStore.kind, () => a.columnStore.ping(), timeoutMs),
    postgres: () => check(a.relational.kind, () => a.relational.ping(), timeoutMs),
  };
  const results = await Promise.all(deps.map((d) => probes[d]()));
  const checks = Object.fromEntries(deps.map((d, i) => [d, results[i]])) as Readiness['checks'];
  const down = deps.filter((_, i) => results[i].status === 'down');
  return { status: down.length === 0 ? 'ok' : 'unavailable', timestamp: new Date().toISOString(), down, checks };
}

export const PROBE_PATHS = { live: '/health', ready: '/health/ready' } as const;

/**
 * GET /health (liveness: the process answers) and GET /health/ready (the dependencies named,
 * each checked; 503 while any is down), without authentication. `more` adds a service's own
 * figures to the readiness body (the consumers' lag).
 */
export function registerProbes(app: FastifyInstance, adapters: Adapters, deps: readonly Dependency[], more?: () => Promise<Record<string, unknown>>): void {
  app.get(PROBE_PATHS.live, async () => ({ status: 'ok', timestamp: new Date().toISOString() }));
  app.get(PROBE_PATHS.ready, async (_req, reply) => {
    const r = await readiness(adapters, deps);
    return reply.code(r.status === 'ok' ? 200 : 503).send({ ...r, ...(await more?.()) });
  });
}
